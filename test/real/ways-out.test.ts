/**
 * Ways out of the root that no configuration key names (SPEC §5.3, src/workspace/
 * outside-survey.ts), on real servers through the compiled bridge: a relative include or
 * import that climbs out, a link out, a path in any key of a configuration file, an include
 * directory in a directory the root's watcher skips, a dependency added after start. After
 * a change there the long-lived bridge answers as a bridge started after it does, and
 * `rename_apply` never writes half a rename.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { findGopls } from "../support/built-servers.ts";
import { answer, GATED, type Probe } from "../support/coherence.ts";
import { startRealBridge } from "../support/real-bridge.ts";
import {
  findClangd,
  findPyright,
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
  gopls: await findGopls(),
};

/** `user.c` calls `alpha` or `beta` as the macro PICK in `cfg` says. */
function pickFiles(cfg: string, include: string): Record<string, string> {
  return {
    [cfg]: "#define PICK 1\n",
    "proj/src/lib.h": "int alpha(void);\nint beta(void);\n",
    "proj/src/lib.c":
      '#include "lib.h"\nint alpha(void) { return 1; }\nint beta(void) { return 2; }\n',
    "proj/src/user.c": `#include "${include}"\n#include "lib.h"\nint use(void) {\n#if PICK\n  return alpha();\n#else\n  return beta();\n#endif\n}\n`,
  };
}
const PICK_SOURCES = ["src/lib.c", "src/user.c"];
const ALPHA: Probe = { tool: "references", args: { file: "src/lib.c", line: 2, symbol: "alpha" } };
const BETA_CALLERS: Probe = {
  tool: "call_hierarchy",
  args: { file: "src/lib.c", line: 3, symbol: "beta", direction: "incoming" },
};
const flip = (cfg: string) => (dir: string) => write(dir, cfg, "#define PICK 0\n");

const tsHover: Probe = { tool: "hover", args: { file: "src/a.ts", line: 2, symbol: "v" } };

const CASES: Record<string, Case> = {
  "clangd: a relative include that climbs out of the root": {
    server: "clangd",
    files: pickFiles("common/cfg.h", "../../common/cfg.h"),
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, []),
    warm: [ALPHA],
    change: flip("common/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: an include directory reached through a link out of the root": {
    server: "clangd",
    files: pickFiles("outside/inc/cfg.h", "cfg.h"),
    prepare: (dir) => {
      // a copy's link would still lead to the first base's directory: made again
      rmSync(join(dir, "proj", "inc"), { force: true });
      symlinkSync(join(dir, "outside", "inc"), join(dir, "proj", "inc"));
      compileDatabase(dir, PICK_SOURCES, ["-Iinc"]);
    },
    warm: [ALPHA],
    change: flip("outside/inc/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: .clangd adds an include directory outside the root": {
    server: "clangd",
    files: pickFiles("outside/cfg.h", "cfg.h"),
    prepare: (dir) => {
      write(dir, "proj/.clangd", `CompileFlags:\n  Add: [-I${join(dir, "outside")}]\n`);
      compileDatabase(dir, PICK_SOURCES, []);
    },
    warm: [ALPHA],
    change: flip("outside/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: an include directory in .cache, which clangd does not write": {
    server: "clangd",
    files: pickFiles("proj/.cache/gen/cfg.h", "cfg.h"),
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, ["-I.cache/gen"]),
    warm: [ALPHA],
    change: flip("proj/.cache/gen/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: an include directory in a build directory tagged CACHEDIR.TAG": {
    server: "clangd",
    files: {
      ...pickFiles("proj/build/gen/cfg.h", "cfg.h"),
      "proj/build/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
    },
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, ["-Ibuild/gen"]),
    warm: [ALPHA],
    change: flip("proj/build/gen/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: an absolute include": {
    server: "clangd",
    files: pickFiles("outside/cfg.h", "cfg.h"),
    prepare: (dir) => {
      write(
        dir,
        "proj/src/user.c",
        pickFiles("x", join(dir, "outside/cfg.h"))["proj/src/user.c"] as string,
      );
      compileDatabase(dir, PICK_SOURCES, []);
    },
    warm: [ALPHA],
    change: flip("outside/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: a header an outside header includes from below it": {
    server: "clangd",
    files: {
      ...pickFiles("common/sub/pick.h", "../../common/cfg.h"),
      "common/cfg.h": '#include "sub/pick.h"\n',
    },
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, []),
    warm: [ALPHA],
    change: flip("common/sub/pick.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: a .clangd in the root's parent adds an include directory": {
    server: "clangd",
    files: pickFiles("outside/cfg.h", "cfg.h"),
    prepare: (dir) => {
      write(dir, ".clangd", `CompileFlags:\n  Add: [-I${join(dir, "outside")}]\n`);
      compileDatabase(dir, PICK_SOURCES, []);
    },
    warm: [ALPHA],
    change: (dir) =>
      write(dir, ".clangd", `CompileFlags:\n  Add: [-I${join(dir, "outside")}, -DPICK=0]\n`),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: an include missing at start, created later outside the root": {
    server: "clangd",
    files: {
      ...pickFiles("later/README", "../../later/cfg.h"),
      "proj/src/user.c":
        '#if __has_include("../../later/cfg.h")\n#include "../../later/cfg.h"\n#else\n#define PICK 1\n#endif\n#include "lib.h"\nint use(void) {\n#if PICK\n  return alpha();\n#else\n  return beta();\n#endif\n}\n',
    },
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, []),
    warm: [ALPHA],
    change: (dir) => write(dir, "later/cfg.h", "#define PICK 0\n"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: a header outside includes one further out, beside its own directory": {
    server: "clangd",
    files: {
      ...pickFiles("vendor/pick.h", "cfg.h"),
      "common/cfg.h": '#include "../vendor/pick.h"\n',
    },
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, ["-I../common"]),
    warm: [ALPHA],
    change: flip("vendor/pick.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: an include directory made after start, then changed": {
    server: "clangd",
    files: {
      ...pickFiles("unused/cfg.h", "cfg.h"),
      "proj/src/user.c":
        '#if __has_include("cfg.h")\n#include "cfg.h"\n#else\n#define PICK 1\n#endif\n#include "lib.h"\nint use(void) {\n#if PICK\n  return alpha();\n#else\n  return beta();\n#endif\n}\n',
    },
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, ["-I../gen/include"]),
    warm: [ALPHA],
    change: (dir) => write(dir, "gen/include/cfg.h", "#define PICK 1\n"),
    changeAgain: flip("gen/include/cfg.h"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: the user's own configuration, in HOME": {
    server: "clangd",
    home: true,
    files: {
      ...pickFiles("unused/cfg.h", "lib.h"),
      "home/.config/clangd/config.yaml": "CompileFlags:\n  Add: [-DPICK=1]\n",
    },
    prepare: (dir) => compileDatabase(dir, PICK_SOURCES, []),
    warm: [ALPHA],
    change: (dir) =>
      write(dir, "home/.config/clangd/config.yaml", "CompileFlags:\n  Add: [-DPICK=0]\n"),
    probes: [ALPHA, BETA_CALLERS],
  },
  "clangd: a .clang-tidy in the root's parent turns a check on": {
    server: "clangd",
    files: {
      ".clang-tidy": "Checks: '-*'\n",
      "proj/src/main.c": "int f(int x) {\n  if (x) return 1;\n  return 0;\n}\n",
    },
    prepare: (dir) => compileDatabase(dir, ["src/main.c"], []),
    warm: [diag("src/main.c")],
    change: (dir) =>
      write(dir, ".clang-tidy", "Checks: '-*,readability-braces-around-statements'\n"),
    probes: [diag("src/main.c")],
  },
  "pyright: a .pth of its virtual environment names a directory outside the root": {
    server: "pyright",
    files: {
      "libs/mod.py": "def f() -> int:\n    return 1\n",
      "proj/pyrightconfig.json": '{ "venvPath": ".", "venv": ".venv" }\n',
      "proj/.venv/pyvenv.cfg": "home = /usr/bin\nversion = 3.11.7\n",
      "proj/.venv/lib/python3.11/site-packages/libs.pth": "../../../../../libs\n",
      "proj/app.py": "from mod import f\n\nn: int = f()\n",
    },
    prepare: (dir) => {
      rmSync(join(dir, "proj/.venv/bin/python"), { force: true });
      mkdirSync(join(dir, "proj/.venv/bin"), { recursive: true });
      symlinkSync("/usr/bin/python3", join(dir, "proj/.venv/bin/python"));
    },
    warm: [diag("app.py")],
    change: (dir) => write(dir, "libs/mod.py", 'def f() -> str:\n    return "a"\n'),
    probes: [diag("app.py"), { tool: "hover", args: { file: "app.py", line: 1, symbol: "f" } }],
  },
  "pyright: a package installed into its virtual environment outside the root": {
    server: "pyright",
    files: {
      "venvs/env/pyvenv.cfg": "home = /usr/bin\nversion = 3.11.7\n",
      "venvs/env/lib/python3.11/site-packages/other.py": "x = 1\n",
      "proj/pyrightconfig.json": '{ "venvPath": "../venvs", "venv": "env" }\n',
      "proj/main.py": "from pkgx.mod import f\n\nn: int = f()\n",
    },
    prepare: (dir) => {
      rmSync(join(dir, "venvs/env/bin/python"), { force: true });
      mkdirSync(join(dir, "venvs/env/bin"), { recursive: true });
      symlinkSync("/usr/bin/python3", join(dir, "venvs/env/bin/python"));
    },
    warm: [diag("main.py")],
    // as pip writes it: the package's directory, then its files
    change: (dir) => {
      write(dir, "venvs/env/lib/python3.11/site-packages/pkgx/__init__.py", "");
      write(
        dir,
        "venvs/env/lib/python3.11/site-packages/pkgx/mod.py",
        'def f() -> str:\n    return "a"\n',
      );
    },
    probes: [diag("main.py"), { tool: "hover", args: { file: "main.py", line: 3, symbol: "f" } }],
  },
  "typescript-language-server: a relative import that climbs out of the root": {
    server: "typescript-language-server",
    files: {
      "outside/mod.ts": "export const v: number = 1;\n",
      "proj/tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
      "proj/src/a.ts":
        'import { v as w } from "../../outside/mod";\nexport const v = w;\nconst s: number = v;\n',
    },
    warm: [tsHover, diag("src/a.ts")],
    change: (dir) => write(dir, "outside/mod.ts", 'export const v: string = "one";\n'),
    probes: [tsHover, diag("src/a.ts")],
  },
  "typescript-language-server: tsconfig paths map into a directory outside the root": {
    server: "typescript-language-server",
    files: {
      "lib/mod.ts": "export const v: number = 1;\n",
      "proj/tsconfig.json":
        '{ "compilerOptions": { "strict": true, "baseUrl": ".", "paths": { "@lib/*": ["../lib/*"] } }, "include": ["src"] }\n',
      "proj/src/a.ts": 'import { v as w } from "@lib/mod";\nexport const v = w;\n',
    },
    warm: [tsHover],
    change: (dir) => write(dir, "lib/mod.ts", 'export const v: string = "one";\n'),
    probes: [tsHover],
  },
  "typescript-language-server: paths with two targets, the first not there yet": {
    server: "typescript-language-server",
    files: {
      "lib/mod.ts": "export const v: number = 1;\n",
      "proj/tsconfig.json":
        '{ "compilerOptions": { "strict": true, "baseUrl": ".", "paths": { "@lib/*": ["../lib/v2/*", "../lib/*"] } }, "include": ["src"] }\n',
      "proj/src/a.ts": 'import { v as w } from "@lib/mod";\nexport const v = w;\n',
    },
    warm: [tsHover],
    change: (dir) => write(dir, "lib/mod.ts", 'export const v: string = "one";\n'),
    // then the first target appears, and wins
    changeAgain: (dir) => write(dir, "lib/v2/mod.ts", "export const v: boolean = true;\n"),
    probes: [tsHover],
  },
  "typescript-language-server: a paths target moved away, then back": {
    server: "typescript-language-server",
    files: {
      "lib/mod.ts": 'export const v: string = "one";\n',
      "proj/tsconfig.json":
        '{ "compilerOptions": { "strict": true, "baseUrl": ".", "paths": { "@lib/*": ["../lib/*"] } }, "include": ["src"] }\n',
      "proj/src/a.ts": 'import { v as w } from "@lib/mod";\nexport const v = w;\n',
    },
    warm: [tsHover],
    change: (dir) => renameSync(join(dir, "lib"), join(dir, "lib.gone")),
    // its watch followed the directory away: the return is seen where it was
    changeAgain: (dir) => renameSync(join(dir, "lib.gone"), join(dir, "lib")),
    probes: [tsHover],
  },
  "typescript-language-server: an outside module re-exports from below it": {
    server: "typescript-language-server",
    files: {
      "outside/mod.ts": 'export { v } from "./deep/v";\n',
      "outside/deep/v.ts": "export const v: number = 1;\n",
      "proj/tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
      "proj/src/a.ts": 'import { v as w } from "../../outside/mod";\nexport const v = w;\n',
    },
    warm: [tsHover],
    change: (dir) => write(dir, "outside/deep/v.ts", 'export const v: string = "one";\n'),
    probes: [tsHover],
  },
  "pyright: stubPath outside the root": {
    server: "pyright",
    files: {
      "stubs/ext.pyi": "def size() -> int: ...\n",
      "proj/pyrightconfig.json": '{ "stubPath": "../stubs" }\n',
      "proj/app.py": "from ext import size\n\nn: int = size()\n",
    },
    warm: [diag("app.py")],
    change: (dir) => write(dir, "stubs/ext.pyi", "def size() -> str: ...\n"),
    probes: [diag("app.py")],
  },
  "gopls: a go.work in the root's parent uses a module beside it": {
    server: "gopls",
    files: {
      "go.work": "go 1.21\n\nuse (\n\t./proj\n\t./dep\n)\n",
      "dep/go.mod": "module example.com/dep\n\ngo 1.21\n",
      "dep/dep.go": "package dep\n\nvar V int = 1\n",
      "proj/go.mod": "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v0.0.0\n",
      "proj/main.go":
        'package main\n\nimport "example.com/dep"\n\nvar W = dep.V\n\nfunc main() { _ = W }\n',
    },
    warm: [{ tool: "hover", args: { file: "main.go", line: 5, symbol: "W" } }],
    change: (dir) => write(dir, "dep/dep.go", "package dep\n\nvar V int64 = 2\n"),
    probes: [{ tool: "hover", args: { file: "main.go", line: 5, symbol: "W" } }],
  },
  "gopls: a replace directive pointed elsewhere after start, then that module changes": {
    server: "gopls",
    files: {
      "one/go.mod": "module example.com/dep\n\ngo 1.21\n",
      "one/dep.go": "package dep\n\nvar V int = 1\n",
      "two/go.mod": "module example.com/dep\n\ngo 1.21\n",
      "two/dep.go": "package dep\n\nvar V int = 2\n",
      "proj/go.mod":
        "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../one\n",
      "proj/main.go":
        'package main\n\nimport "example.com/dep"\n\nvar W = dep.V\n\nfunc main() { _ = W }\n',
    },
    warm: [{ tool: "hover", args: { file: "main.go", line: 5, symbol: "W" } }],
    change: (dir) =>
      write(
        dir,
        "proj/go.mod",
        "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../two\n",
      ),
    changeAgain: (dir) => write(dir, "two/dep.go", "package dep\n\nvar V int64 = 2\n"),
    probes: [{ tool: "hover", args: { file: "main.go", line: 5, symbol: "W" } }],
  },
};

compareCases(
  "a way out of the root no key names: the long-lived answer is a fresh bridge's",
  FOUND,
  CASES,
);

describe("clangd: rename_apply after a header outside the root changed", () => {
  const found = FOUND.clangd ?? null;
  test.skipIf(!found)("the call in the file that includes it is renamed too", async () => {
    if (!found) return;
    const dir = base(pickFiles("common/cfg.h", "../../common/cfg.h"));
    compileDatabase(dir, PICK_SOURCES, []);
    const root = join(dir, "proj");
    const bridge = await startRealBridge(root, found.config, GATED);
    try {
      await answer(bridge, ALPHA, root);
      write(dir, "common/cfg.h", "#define PICK 0\n");
      const r = await bridge.call("rename_apply", {
        file: "src/lib.c",
        line: 3,
        symbol: "beta",
        new_name: "gamma",
      });
      expect(r.isError ? r.structured : r.structured.applied).toBe(true);
      expect(readFileSync(join(root, "src/user.c"), "utf8")).toContain("return gamma();");
      expect(readFileSync(join(root, "src/lib.h"), "utf8")).toContain("int gamma(void);");
    } finally {
      await bridge.close();
    }
  });
});
