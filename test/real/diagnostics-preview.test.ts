/**
 * Check before write on real servers (SPEC §6.2): a breaking change proposed for a
 * dependency (a parameter removed from `a`'s exported function) reports the new error in
 * its dependent `b`, which is not proposed; a fix proposed in the same call for both files
 * removes it. No file's bytes or mtime change, and the next plain `diagnostics` equals a
 * fresh bridge's. rust-analyzer: its native diagnostics are covered, cargo check is not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { closeBridgesAndTempDirs } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import { ok, realSuite, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  type RealServer,
} from "../support/real-servers.ts";
import { tempDir } from "../support/temp-dirs.ts";

afterAll(closeBridgesAndTempDirs);

interface Case {
  name: string;
  find: () => Promise<RealServer | null>;
  /** the tree; `a` and `b` name the dependency and its dependent */
  files: (root: string) => Record<string, string>;
  a: string;
  b: string;
  /** a's text with the parameter removed; b's text calling it without the argument */
  broken: string;
  fixed: string;
  /** what the error in b says */
  message: RegExp;
  uncovered?: unknown;
}

const cases: Case[] = [
  {
    name: "typescript-language-server",
    find: findTypescriptLanguageServer,
    files: () => ({
      "a.ts": "export function f(x: number): number {\n  return x;\n}\n",
      "b.ts": 'import { f } from "./a";\nexport const y: number = f(1);\n',
    }),
    a: "a.ts",
    b: "b.ts",
    broken: "export function f(): number {\n  return 1;\n}\n",
    fixed: 'import { f } from "./a";\nexport const y: number = f();\n',
    message: /Expected 0 arguments, but got 1/,
  },
  {
    name: "pyright",
    find: findPyright,
    files: () => ({
      "a.py": "def f(x: int) -> int:\n    return x\n",
      "b.py": "from a import f\n\ny: int = f(1)\n",
    }),
    a: "a.py",
    b: "b.py",
    broken: "def f() -> int:\n    return 1\n",
    fixed: "from a import f\n\ny: int = f()\n",
    message: /Expected 0 positional arguments/,
  },
  {
    name: "gopls",
    find: findGopls,
    files: () => ({
      "go.mod": "module example.com/p\n\ngo 1.22\n",
      "a.go": "package p\n\nfunc F(x int) int {\n\treturn x\n}\n",
      "b.go": "package p\n\nvar Y = F(1)\n",
    }),
    a: "a.go",
    b: "b.go",
    broken: "package p\n\nfunc F() int {\n\treturn 1\n}\n",
    fixed: "package p\n\nvar Y = F()\n",
    message: /too many arguments/,
  },
  {
    name: "clangd",
    find: findClangd,
    files: (root) => ({
      "compile_commands.json": JSON.stringify([
        { directory: root, file: join(root, "b.c"), arguments: ["cc", "-std=c11", "-c", "b.c"] },
      ]),
      "a.h": "int f(int x);\n",
      "b.c": '#include "a.h"\nint y(void) { return f(1); }\n',
    }),
    a: "a.h",
    b: "b.c",
    broken: "int f(void);\n",
    fixed: '#include "a.h"\nint y(void) { return f(); }\n',
    message: /Too many arguments/,
  },
  {
    name: "rust-analyzer",
    find: findRustAnalyzer,
    files: () => ({
      "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "pub mod a;\npub mod b;\n",
      "src/a.rs": "pub fn f(x: i32) -> i32 {\n    x\n}\n",
      "src/b.rs": "pub fn y() -> i32 {\n    crate::a::f(1)\n}\n",
    }),
    a: "src/a.rs",
    b: "src/b.rs",
    broken: "pub fn f() -> i32 {\n    1\n}\n",
    fixed: "pub fn y() -> i32 {\n    crate::a::f()\n}\n",
    message: /expected 0 arguments, found 1/,
    uncovered: [{ server: "rust-analyzer", channel: "push", runs: ["flycheck"] }],
  },
];

type Item = { file: string; message: string; severity: string };

/** The files' bytes and mtimes. */
function stamp(root: string, files: string[]): string[] {
  return files.map(
    (f) => `${readFileSync(join(root, f), "utf8")}@${statSync(join(root, f)).mtimeMs}`,
  );
}

for (const c of cases) {
  const found = await c.find();
  requiredUnderCI(c.name, found);
  describe.skipIf(!found)(c.name, () => {
    const suite = realSuite(c.name, found);
    test("a breaking change reports the dependent's error; the fix removes it", async () => {
      const root = tempDir();
      for (const [rel, text] of Object.entries(c.files(root))) {
        mkdirSync(dirname(join(root, rel)), { recursive: true });
        writeFileSync(join(root, rel), text);
      }
      const bridge = await startRealBridge(root, suite.config());
      const files = [c.a, c.b];
      const disk = await ok(bridge, "diagnostics", { files });
      expect(disk.total).toBe(0);
      const before = stamp(root, files);

      const t0 = performance.now();
      const broken = await ok(bridge, "diagnostics", {
        contents: [{ file: c.a, text: c.broken }],
      });
      const t1 = performance.now();
      const added = broken.added as Item[];
      expect(added.map((d) => d.file)).toEqual([c.b]);
      expect(added[0]?.message).toMatch(c.message);
      expect(broken.removed).toEqual([]);
      expect(broken.files).toContain(c.b);
      expect(broken.diagnostics).toEqual(added);
      expect(broken.uncovered).toEqual(c.uncovered);

      const fixed = await ok(bridge, "diagnostics", {
        contents: [
          { file: c.a, text: c.broken },
          { file: c.b, text: c.fixed },
        ],
      });
      const t2 = performance.now();
      const ms = (a: number, b: number) => Math.round(b - a);
      console.log(`${c.name}: preview ${ms(t0, t1)} ms, preview of two files ${ms(t1, t2)} ms`);
      expect(fixed.diagnostics).toEqual([]);
      expect(fixed.added).toEqual([]);

      // nothing written; the view is the disk's again: a fresh bridge answers the same
      expect(stamp(root, files)).toEqual(before);
      const after = await ok(bridge, "diagnostics", { files });
      expect(after.snapshot).toBe(disk.snapshot as string);
      await bridge.close();
      const fresh = await startRealBridge(root, suite.config());
      expect((await ok(fresh, "diagnostics", { files })).snapshot).toBe(after.snapshot as string);
      await fresh.close();
    });
  });
}
