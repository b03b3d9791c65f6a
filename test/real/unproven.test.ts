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
import { afterAll, describe, expect, test } from "bun:test";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ServerConfig } from "../../src/config/types.ts";
import type { BridgeHandle } from "../support/bridge.ts";
import { answer, GATED, type Probe } from "../support/coherence.ts";
import { requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  type RealServer,
} from "../support/real-servers.ts";

const FOUND: Record<string, RealServer | null> = {
  clangd: await findClangd(),
  pyright: await findPyright(),
  "typescript-language-server": await findTypescriptLanguageServer(),
  "rust-analyzer": await findRustAnalyzer(),
};
const bases: string[] = [];
afterAll(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
});

/** A base directory holding `files` (paths relative to it; the root is `proj`). */
function base(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-unproven-")));
  bases.push(dir);
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  return dir;
}

function write(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** compile_commands.json for the C files of `proj`, with `flags`, at this base's paths. */
function compileDatabase(dir: string, files: string[], flags: string[]): void {
  const root = join(dir, "proj");
  const db = files.map((file) => ({
    directory: root,
    file: join(root, file),
    arguments: ["cc", ...flags, "-c", file],
  }));
  writeFileSync(join(root, "compile_commands.json"), JSON.stringify(db));
}

interface Case {
  server: string;
  files: Record<string, string>;
  /** after copying: what depends on the copy's own paths (a compile database) */
  prepare?: (dir: string) => void;
  /** the server's configuration, from the one users get (the preset) */
  config?: (c: ServerConfig) => ServerConfig;
  warm: Probe[];
  change: (dir: string) => void;
  probes: Probe[];
}

/** An answer with the base directory's path as `<base>` (the two bases differ). */
async function inBase(b: BridgeHandle, p: Probe, dir: string): Promise<unknown> {
  const a = await answer(b, p, join(dir, "proj"));
  return JSON.parse(JSON.stringify(a).replaceAll(dir, "<base>"));
}

/** The long-lived bridge's answers after the change, and a fresh bridge's on a copy. */
async function bothAnswers(c: Case, server: ServerConfig): Promise<[unknown[], unknown[]]> {
  const dir = base(c.files);
  c.prepare?.(dir);
  const long = await startRealBridge(join(dir, "proj"), server, GATED);
  let fresh: BridgeHandle | undefined;
  try {
    for (const p of c.warm) await answer(long, p, join(dir, "proj"));
    c.change(dir);
    const copy = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-unproven-fresh-")));
    bases.push(copy);
    cpSync(dir, copy, { recursive: true, filter: (s) => !s.endsWith("/.cache") });
    c.prepare?.(copy);
    const mine: unknown[] = [];
    for (const p of c.probes) mine.push(await inBase(long, p, dir));
    fresh = await startRealBridge(join(copy, "proj"), server, GATED);
    const truth: unknown[] = [];
    for (const p of c.probes) truth.push(await inBase(fresh, p, copy));
    return [mine, truth];
  } finally {
    await fresh?.close();
    await long.close();
  }
}

const diag = (file: string): Probe => ({ tool: "diagnostics", args: { file } });

const MACRO_FILES = {
  "proj/config.h": "#define USE_FAST 1\n",
  "proj/api.h": "int fast(void);\nint slow(void);\n",
  "proj/impl.c": '#include "api.h"\nint fast(void) { return 1; }\nint slow(void) { return 2; }\n',
  "proj/user.c":
    '#include "config.h"\n#include "api.h"\nint run(void) {\n#if USE_FAST\n  return fast();\n#else\n  return slow();\n#endif\n}\n',
  "proj/main.c": '#include "api.h"\nint main(void) { return slow(); }\n',
};
const C_FILES = ["impl.c", "user.c", "main.c"];

const CASES: Record<string, Case> = {
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
};

for (const name of Object.keys(FOUND)) requiredUnderCI(name, FOUND[name] ?? null);

describe("a change no list names: the long-lived answer is a fresh bridge's", () => {
  for (const [label, c] of Object.entries(CASES)) {
    const found = FOUND[c.server] ?? null;
    test.skipIf(!found)(label, async () => {
      if (!found) return;
      const server = c.config ? c.config(found.config) : found.config;
      const [mine, truth] = await bothAnswers(c, server);
      expect({ case: label, answers: mine }).toEqual({ case: label, answers: truth });
    });
  }
});

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
