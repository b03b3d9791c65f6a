/**
 * The root's path coming to name another directory (SPEC §5.2): the directory above the
 * root moved aside and a copy with other text put in its place, on real servers through the
 * compiled bridge. The watches were on the directories that moved; the long-lived bridge
 * must answer as a bridge started on the new directory does.
 */
import { cpSync, renameSync } from "node:fs";
import { join } from "node:path";
import { findPyright, findTypescriptLanguageServer } from "../support/real-servers.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { type Case, compareCases, diag, write } from "../support/unproven-cases.ts";

/** `mv base aside && cp -a aside base`: the same paths, other directories. */
function replacedByCopy(dir: string): void {
  const aside = join(tempDir("theodolite-root-moved-"), "aside");
  renameSync(dir, aside);
  cpSync(aside, dir, { recursive: true });
}

const CASES: Record<string, Case> = {
  "pyright: the root's parent replaced by a copy, a module's type changed in it": {
    server: "pyright",
    files: {
      "proj/lib.py": "def g() -> int:\n    return 1\n",
      "proj/main.py": "from lib import g\n\nn: int = g()\n",
    },
    warm: [diag("main.py"), { tool: "hover", args: { file: "main.py", line: 3, symbol: "g" } }],
    change: (dir) => {
      replacedByCopy(dir);
      write(dir, "proj/lib.py", 'def g() -> str:\n    return "é"\n');
    },
    probes: [diag("main.py"), { tool: "hover", args: { file: "main.py", line: 3, symbol: "g" } }],
  },
  "typescript-language-server: the root's parent replaced by a copy, a type changed in it": {
    server: "typescript-language-server",
    files: {
      "proj/tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
      "proj/src/lib.ts": "export const v: number = 1;\n",
      "proj/src/a.ts": 'import { v } from "./lib";\nexport const n: number = v;\n',
    },
    warm: [diag("src/a.ts")],
    change: (dir) => {
      replacedByCopy(dir);
      write(dir, "proj/src/lib.ts", 'export const v: string = "é";\n');
    },
    probes: [diag("src/a.ts")],
  },
};

compareCases(
  "the root's path naming another directory: the long-lived answer is a fresh bridge's",
  {
    pyright: await findPyright(),
    "typescript-language-server": await findTypescriptLanguageServer(),
  },
  CASES,
);
