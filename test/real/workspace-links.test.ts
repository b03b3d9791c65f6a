/**
 * A symlinked directory inside the root on the real servers (SPEC §5.2): `link -> real`
 * and a file importing through the link. After the real file is edited through its real
 * path (the linked file not open), the importer's diagnostics equal a freshly started
 * bridge's; after it is opened by its link path and edited through the link, so do the
 * importer's diagnostics and the linked file's hover: the change reaches the server under
 * the path it knows the file by. typescript-language-server, pyright and gopls.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findGopls } from "../support/built-servers.ts";
import { answer, freshAnswers, type Probe } from "../support/coherence.ts";
import { ok, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  findPyright,
  findTypescriptLanguageServer,
  type RealServer,
} from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

interface Case {
  files: Record<string, string>;
  /** the link and where it points, relative to the link's directory */
  link: [string, string];
  importer: string;
  /** the linked file by its link path, and the real path of the same file */
  viaLink: string;
  real: string;
  /** where hover asks in the linked file */
  hover: { line: number; symbol: string };
  /** the linked file's two versions */
  v2: string;
  v3: string;
}

const CASES: Record<string, Case> = {
  "typescript-language-server": {
    files: {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "ES2022", target: "ES2022" },
        include: ["src"],
      }),
      "real/x.ts": "export function f(a: number): number {\n  return a;\n}\n",
      "src/a.ts": 'import { f } from "./link/x";\n\nexport const v: number = f(1);\n',
    },
    link: ["src/link", "../real"],
    importer: "src/a.ts",
    viaLink: "src/link/x.ts",
    real: "real/x.ts",
    hover: { line: 1, symbol: "f" },
    v2: "export function f(a: string): string {\n  return a;\n}\n",
    v3: "export function f(a: number, b = 0): number {\n  return a + b;\n}\n",
  },
  pyright: {
    files: {
      "real/x.py": "def f(a: int) -> int:\n    return a\n",
      "a.py": "from link.x import f\n\nv: int = f(1)\n",
    },
    link: ["link", "real"],
    importer: "a.py",
    viaLink: "link/x.py",
    real: "real/x.py",
    hover: { line: 1, symbol: "f" },
    v2: "def f(a: str) -> str:\n    return a\n",
    v3: "def f(a: int, b: int = 0) -> int:\n    return a + b\n",
  },
  gopls: {
    files: {
      "go.mod": "module example.com/links\n\ngo 1.21\n",
      "real/x.go": "package real\n\nfunc F(a int) int { return a }\n",
      "main.go":
        'package main\n\nimport real "example.com/links/link"\n\nfunc main() { _ = real.F(1) }\n',
    },
    link: ["link", "real"],
    importer: "main.go",
    viaLink: "link/x.go",
    real: "real/x.go",
    hover: { line: 3, symbol: "F" },
    v2: "package real\n\nfunc F(a string) string { return a }\n",
    v3: "package real\n\nfunc F(a int, b ...int) int { return a }\n",
  },
};

const FOUND: Record<string, RealServer | null> = {
  "typescript-language-server": await findTypescriptLanguageServer(),
  pyright: await findPyright(),
  gopls: await findGopls(),
};

afterAll(removeTempDirs);

function materialize(c: Case): string {
  const root = tempDir("theodolite-links-");
  for (const [rel, text] of Object.entries(c.files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  symlinkSync(c.link[1], join(root, c.link[0]));
  return root;
}

for (const [name, c] of Object.entries(CASES)) {
  const found = FOUND[name] ?? null;
  requiredUnderCI(name, found);

  describe.skipIf(!found)(`${name}: a directory linked inside the root`, () => {
    test("an edit of the real file reaches the importer, and the file open by its link path", async () => {
      if (!found) return;
      const root = materialize(c);
      const importer: Probe = { tool: "diagnostics", args: { file: c.importer } };
      const linked: Probe = { tool: "hover", args: { file: c.viaLink, ...c.hover } };
      await using long = await startRealBridge(root, found.config);
      await ok(long, "session_status", { start: true });
      await ok(long, importer.tool, importer.args);
      // the linked file is not open: only the server's own view of it can follow
      for (const [how, rel, text, probes] of [
        ["through the real path, not open", c.real, c.v2, [importer]],
        ["through the link, open by its link path", c.viaLink, c.v3, [importer, linked]],
      ] as const) {
        if (probes.length > 1) await ok(long, linked.tool, linked.args);
        writeFileSync(join(root, rel), text);
        const truth = freshAnswers(root, found.config, [...probes]);
        const got: unknown[] = [];
        for (const p of probes) got.push(await answer(long, p, root));
        expect({ how, answers: got }).toEqual({ how, answers: await truth });
      }
    }, 300_000);
  });
}
