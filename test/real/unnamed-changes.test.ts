/**
 * Changes no watched directory reports by the file's name in the root (SPEC §5.2, §5.1), on
 * real servers through the compiled bridge: the directory above the root moved aside and a
 * copy with other text put in its place (the watches were on the directories that moved),
 * and a write through a hard link whose other name lies outside the root, to a file the
 * bridge's answers named before (its own watch hears it). The long-lived bridge must answer
 * as a bridge started afresh does.
 */
import { cpSync, linkSync, renameSync, writeFileSync } from "node:fs";
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

const uses = { tool: "references", args: { file: "main.py", line: 3, symbol: "g" } };

const CASES: Record<string, Case> = {
  "pyright: a module the answers named, written through a link outside the root": {
    server: "pyright",
    files: {
      "proj/lib.py": "def g() -> int:\n    return 1\n",
      "proj/main.py": "from lib import g\n\nn: int = g()\n",
    },
    // named by two answers: its own watch vouches for its table from then on
    warm: [diag("main.py"), uses, uses],
    change: (dir) => {
      linkSync(join(dir, "proj/lib.py"), join(dir, "lib-elsewhere.py"));
      writeFileSync(join(dir, "lib-elsewhere.py"), 'x = "😀"; g = lambda: "b"\n');
    },
    probes: [diag("main.py"), uses],
  },
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
  "a change no watched directory names: the long-lived answer is a fresh bridge's",
  {
    pyright: await findPyright(),
    "typescript-language-server": await findTypescriptLanguageServer(),
  },
  CASES,
);
