/**
 * Truth by construction (SPEC §5.3), on real servers through the compiled bridge: after a
 * change no list named — a header's macro, a header in a hidden include directory or
 * outside the root, a base configuration a config `extends` (inside or outside the root),
 * cargo's `[env]`, a new file under a configuration without the preset's keys — the
 * long-lived bridge answers exactly as a bridge started after the change (its `restarted`
 * note aside), or marks its answer; and `rename_apply` never writes a rename that leaves a
 * site. Each case lives in a base directory holding the root (`proj`) and what lies beside
 * it; the fresh bridge runs on a copy of the whole base.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { answer, GATED } from "../support/coherence.ts";
import { findLanguageServer } from "../support/language-servers.ts";
import { startRealBridge } from "../support/real-bridge.ts";
import {
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  type RealServer,
} from "../support/real-servers.ts";
import {
  base,
  type Case,
  compareCases,
  compileDatabase,
  diag,
  write,
} from "../support/unproven-cases.ts";

const FOUND: Record<string, RealServer | null> = {
  clangd: await findClangd(),
  pyright: await findPyright(),
  "typescript-language-server": await findTypescriptLanguageServer(),
  "rust-analyzer": await findRustAnalyzer(),
  "vscode-json-language-server": await findLanguageServer("vscode-json-language-server"),
};

const HOVER_F = { tool: "hover", args: { file: "main.py", line: 3, symbol: "f" } } as const;
const RUST_HOVER_F = {
  tool: "hover",
  args: { file: "src/main.rs", line: 4, symbol: "f" },
} as const;
const C_REFS_F = { tool: "references", args: { file: "main.c", line: 2, symbol: "f" } } as const;

const MACRO_FILES = {
  "proj/config.h": "#define USE_FAST 1\n",
  "proj/api.h": "int fast(void);\nint slow(void);\n",
  "proj/impl.c": '#include "api.h"\nint fast(void) { return 1; }\nint slow(void) { return 2; }\n',
  "proj/user.c":
    '#include "config.h"\n#include "api.h"\nint run(void) {\n#if USE_FAST\n  return fast();\n#else\n  return slow();\n#endif\n}\n',
  "proj/main.c": '#include "api.h"\nint main(void) { return slow(); }\n',
};
const C_FILES = ["impl.c", "user.c", "main.c"];

const schema = (type: string) =>
  `{ "type": "object", "properties": { "n": { "type": "${type}" } } }\n`;

const CASES: Record<string, Case> = {
  "vscode-json-language-server: a schema it has open, changed on disk": {
    server: "vscode-json-language-server",
    files: {
      "proj/s.schema.json": schema("string"),
      "proj/a.json": '{ "$schema": "./s.schema.json", "n": "x" }\n',
    },
    // the schema open (a call on it, or a preview of it): its change is sent as a document
    warm: [diag("s.schema.json"), diag("a.json")],
    change: (dir) => write(dir, "proj/s.schema.json", schema("number")),
    probes: [diag("a.json")],
  },
  "clangd: a header's macro flips which function an unopened file calls": {
    server: "clangd",
    files: MACRO_FILES,
    prepare: (dir) => compileDatabase(dir, C_FILES, []),
    warm: [{ tool: "references", args: { file: "impl.c", line: 3, symbol: "slow" } }],
    change: (dir) => write(dir, "proj/config.h", "#define USE_FAST 0\n"),
    probes: [
      { tool: "references", args: { file: "impl.c", line: 3, symbol: "slow" } },
      {
        tool: "call_hierarchy",
        args: { file: "impl.c", line: 3, symbol: "slow", direction: "incoming" },
      },
    ],
  },
  "clangd: a header in a hidden include directory (-I.gen) changes a signature": {
    server: "clangd",
    files: {
      "proj/.gen/gen.h": "int area(int w);\n",
      "proj/main.c": '#include "gen.h"\nint main(void) { return area(2); }\n',
    },
    prepare: (dir) => compileDatabase(dir, ["main.c"], ["-I.gen"]),
    warm: [diag("main.c")],
    change: (dir) => write(dir, "proj/.gen/gen.h", "int area(int w, int h);\n"),
    probes: [diag("main.c"), { tool: "hover", args: { file: "main.c", line: 2, symbol: "area" } }],
  },
  "clangd: a header outside the root (-I../common) changes a signature": {
    server: "clangd",
    files: {
      "common/shared.h": "int area(int w);\n",
      "proj/main.c": '#include "shared.h"\nint main(void) { return area(2); }\n',
    },
    prepare: (dir) => compileDatabase(dir, ["main.c"], ["-I../common"]),
    warm: [diag("main.c")],
    change: (dir) => write(dir, "common/shared.h", "int area(int w, int h);\n"),
    probes: [diag("main.c"), { tool: "hover", args: { file: "main.c", line: 2, symbol: "area" } }],
  },
  "typescript-language-server: a base tsconfig outside the root turns strict on": {
    server: "typescript-language-server",
    files: {
      "tsconfig.base.json": '{ "compilerOptions": { "strict": false } }\n',
      "proj/tsconfig.json": '{ "extends": "../tsconfig.base.json", "include": ["src"] }\n',
      "proj/src/a.ts": "export function twice(x) {\n  return x + x;\n}\n",
    },
    warm: [diag("src/a.ts")],
    change: (dir) =>
      write(dir, "tsconfig.base.json", '{ "compilerOptions": { "strict": true } }\n'),
    probes: [diag("src/a.ts")],
  },
  "pyright: only the base configuration it extends turns strict on": {
    server: "pyright",
    files: {
      "proj/pyrightconfig.json": '{ "extends": "./base.json" }\n',
      "proj/base.json": '{ "typeCheckingMode": "basic" }\n',
      "proj/app.py": "def twice(x):\n    return x + x\n",
    },
    warm: [diag("app.py")],
    change: (dir) => write(dir, "proj/base.json", '{ "typeCheckingMode": "strict" }\n'),
    probes: [diag("app.py")],
  },
  "pyright without the preset's keys: a new file calling an existing function": {
    server: "pyright",
    files: {
      "proj/geometry.py": "def make_circle(r: float) -> float:\n    return r\n",
      "proj/app.py": "from geometry import make_circle\n\nx = make_circle(1.0)\n",
    },
    // a configuration written by hand with the SPEC's keys alone
    config: (c) => ({
      ...c,
      open_changed_files: false,
      restart_on: [],
      reload_on: [],
      reads: ["**"],
    }),
    warm: [{ tool: "references", args: { file: "geometry.py", line: 1, symbol: "make_circle" } }],
    change: (dir) =>
      write(dir, "proj/extra.py", "from geometry import make_circle\n\ny = make_circle(2.0)\n"),
    probes: [{ tool: "references", args: { file: "geometry.py", line: 1, symbol: "make_circle" } }],
  },
  "rust-analyzer: cargo's [env] changes what env!() gives": {
    server: "rust-analyzer",
    files: {
      "proj/Cargo.toml": '[package]\nname = "envcase"\nversion = "0.1.0"\nedition = "2021"\n',
      "proj/.cargo/config.toml": '[env]\nGREETING = "hello"\n',
      "proj/src/main.rs":
        'const GREETING: &str = env!("GREETING");\n\nfn main() {\n    println!("{GREETING}");\n}\n',
    },
    warm: [{ tool: "hover", args: { file: "src/main.rs", line: 1, symbol: "GREETING" } }],
    change: (dir) => write(dir, "proj/.cargo/config.toml", '[env]\nGREETING = "goodbye"\n'),
    probes: [{ tool: "hover", args: { file: "src/main.rs", line: 1, symbol: "GREETING" } }],
  },
  // the most ordinary change: a file no call opened, edited in place, then opened for the
  // server with its event (the order of the two matters to pyright, change-rule.ts)
  "pyright: a module nobody opened, edited in place": {
    server: "pyright",
    files: {
      "proj/lib.py": "def f() -> int:\n    return 1\n",
      "proj/main.py": "from lib import f\n\nx: int = f()\n",
    },
    warm: [HOVER_F, diag("main.py")],
    change: (dir) => write(dir, "proj/lib.py", 'def f() -> str:\n    return "a"\n'),
    probes: [HOVER_F, diag("main.py")],
  },
  "rust-analyzer: a module nobody opened, edited in place": {
    server: "rust-analyzer",
    files: {
      "proj/Cargo.toml": '[package]\nname = "inplace"\nversion = "0.1.0"\nedition = "2021"\n',
      "proj/src/main.rs": "mod util;\n\nfn main() {\n    let _x = util::f();\n}\n",
      "proj/src/util.rs": "pub fn f() -> i32 {\n    1\n}\n",
    },
    warm: [RUST_HOVER_F],
    change: (dir) => write(dir, "proj/src/util.rs", 'pub fn f() -> &\'static str {\n    "a"\n}\n'),
    probes: [RUST_HOVER_F],
  },
  "clangd: a source nobody opened, edited in place": {
    server: "clangd",
    files: {
      "proj/util.h": "int f(void);\n",
      "proj/util.c": '#include "util.h"\nint f(void) { return 1; }\n',
      "proj/main.c": '#include "util.h"\nint main(void) { return f(); }\n',
    },
    prepare: (dir) => compileDatabase(dir, ["util.c", "main.c"], []),
    warm: [C_REFS_F],
    change: (dir) =>
      write(
        dir,
        "proj/util.c",
        '#include "util.h"\nint f(void) { return 1; }\nint g(void) { return f(); }\n',
      ),
    probes: [C_REFS_F],
  },
};

compareCases("a change no list names: the long-lived answer is a fresh bridge's", FOUND, CASES);

describe("clangd: rename_apply after a header's macro changed", () => {
  const found = FOUND.clangd ?? null;
  test.skipIf(!found)("the unopened file's call is renamed too, never left", async () => {
    if (!found) return;
    const dir = base(MACRO_FILES);
    compileDatabase(dir, C_FILES, []);
    const root = join(dir, "proj");
    const bridge = await startRealBridge(root, found.config, GATED);
    try {
      const at = { file: "impl.c", line: 3, symbol: "slow" };
      await answer(bridge, { tool: "references", args: at }, root);
      write(dir, "proj/config.h", "#define USE_FAST 0\n");
      const r = await bridge.call("rename_apply", { ...at, new_name: "slower" });
      if (r.isError) {
        // refusing is allowed; writing half a rename is not
        expect(readFileSync(join(root, "user.c"), "utf8")).toContain("return slow();");
        expect(readFileSync(join(root, "impl.c"), "utf8")).toContain("int slow(void)");
        expect(r.structured.code).toBe("EditIncomplete");
      } else {
        expect(r.structured.applied).toBe(true);
        expect(readFileSync(join(root, "user.c"), "utf8")).toContain("return slower();");
        expect(readFileSync(join(root, "main.c"), "utf8")).toContain("return slower();");
        expect(readFileSync(join(root, "api.h"), "utf8")).toContain("int slower(void);");
      }
    } finally {
      await bridge.close();
    }
  });
});
