/**
 * The randomized soak against a fresh bridge (test/support/soak.ts) on every real server
 * with diagnostics: typescript-language-server, pyright, rust-analyzer alone and with
 * bacon-ls, clangd, gopls; on all but clangd each step also renames with rename_apply and
 * back. Two processes burn the CPU beside it (SOAK_BURNERS; none in a parallel worker, where
 * the other worker's files load the cores), so the timing windows where stale answers hide
 * are hit on purpose. The step count is SOAK_STEPS (a few in CI;
 * docs/TESTING.md has the long runs), the seed SOAK_SEED; on typescript-language-server
 * and pyright each step also previews SOAK_PROPOSALS proposals (`diagnostics {contents}`,
 * default 1); every mismatch fails with its seed and step.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../src/config/types.ts";
import { findBaconLs, findGopls } from "../support/built-servers.ts";
import { requiredUnderCI } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";
import { type SoakLanguage, soak } from "../support/soak.ts";

const STEPS = Number(process.env.SOAK_STEPS ?? 4);
/** `diagnostics {contents}` previews per step on typescript-language-server and pyright */
const PROPOSALS = Number(process.env.SOAK_PROPOSALS ?? 1);
const SEED = Number(process.env.SOAK_SEED ?? 2026);
const progress = process.env.SOAK_PROGRESS;

const dirs: string[] = [];
let burners: Bun.Subprocess[] = [];
beforeAll(() => {
  // busy loops (two: the machine's both cores) contended while every server works;
  // SOAK_BURNERS=0 when several soaks run side by side and load each other. In a
  // `--parallel` worker (.ci/test.ts) the other worker's files are the contention: a
  // burner there would only take their core (a minute of the suite's time).
  const parallel = process.env.BUN_TEST_WORKER_ID !== undefined;
  const count = Number(process.env.SOAK_BURNERS ?? (parallel ? 0 : 2));
  burners = Array.from({ length: count }, () =>
    Bun.spawn(["sh", "-c", "while :; do :; done"], { stdout: "ignore", stderr: "ignore" }),
  );
});
afterAll(() => {
  for (const b of burners) b.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(
  name: string,
  root: string,
  server: ServerConfig,
  lang: SoakLanguage,
  extra?: ServerConfig[],
  /** both bridges through zero-config, finding these servers (SPEC §2.1) */
  zeroConfig?: RealServer[],
  proposals = 0,
) {
  dirs.push(root);
  const result = await soak({
    root,
    server,
    lang,
    seed: SEED,
    steps: STEPS,
    proposals,
    ...(extra ? { bridge: { extraServers: extra } } : {}),
    ...(zeroConfig ? { zeroConfig } : {}),
    // SOAK_PROGRESS=FILE: a line per step, the mismatches so far (a long run read as it goes)
    log: (line) => {
      if (progress !== undefined) appendFileSync(progress, `${name}: ${line}\n`);
    },
  });
  console.log(
    `${name}: ${result.steps} steps, ${result.compared} comparisons, kinds ${JSON.stringify(result.kinds)}, renames ${JSON.stringify(result.renames)}, proposals ${JSON.stringify(result.proposals)}`,
  );
  // the test's diff shortens long answers; SOAK_REPORT=DIR keeps every mismatch whole
  const report = process.env.SOAK_REPORT;
  if (report !== undefined && result.mismatches.length > 0) {
    writeFileSync(join(report, `${name.replaceAll(" ", "_")}.txt`), result.mismatches.join("\n\n"));
  }
  expect(result.mismatches).toEqual([]);
  expect(result.steps).toBe(STEPS);
}

const TIMEOUT = 120_000 + STEPS * 60_000;

/**
 * The ts fixture: a flip of tsconfig.json's noUnusedLocals, and a base configuration it
 * extends whose noUnusedParameters a `depend` step flips (SPEC §5.3).
 */
function typescriptLanguage(root: string): SoakLanguage {
  const tsconfig = (on: boolean) => {
    const c = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"));
    c.compilerOptions.noUnusedLocals = on;
    c.extends = "./tsconfig.base.json";
    return `${JSON.stringify(c, null, 2)}\n`;
  };
  const base = (on: boolean) =>
    `${JSON.stringify({ compilerOptions: { noUnusedParameters: on } }, null, 2)}\n`;
  return {
    files: ["src/main.ts", "src/shape.ts", "src/errors.ts"],
    bad: (n) => `export const soak${n}: number = "s${n}";`,
    fine: (n) => `// soak ${n}`,
    newFile: (n, broken, nested) => ({
      path: nested ? `src/deep${n}/soak${n}.ts` : `src/soak${n}.ts`,
      text: `import { totalArea } from "${nested ? "../shape" : "./shape"}";\n\nexport const s${n} = totalArea([]);\n${broken ? `export const bad${n}: number = "b";\n` : ""}`,
    }),
    setup: {
      "src/lonely.ts":
        "const lonely = 1;\nexport function ignore(unused: number): number {\n  return 1;\n}\n",
      "tsconfig.base.json": base(false),
      "tsconfig.json": tsconfig(false),
    },
    flip: (on) => ({ "tsconfig.json": tsconfig(on) }),
    depend: (on) => ({ "tsconfig.base.json": base(on) }),
    references: { file: "src/shape.ts", symbol: "totalArea" },
    rename: "sumArea",
  };
}

const tls = await findTypescriptLanguageServer();
requiredUnderCI("typescript-language-server", tls);
describe.skipIf(!tls)("soak: typescript-language-server", () => {
  test(
    "every step's answers equal a fresh bridge's",
    async () => {
      if (!tls) return;
      const root = copyFixture("ts");
      const lang = typescriptLanguage(root);
      await run(
        "typescript-language-server",
        root,
        tls.config,
        lang,
        undefined,
        undefined,
        PROPOSALS,
      );
    },
    TIMEOUT,
  );
});

describe.skipIf(!tls)("soak: typescript-language-server through zero-config", () => {
  test(
    "every step's answers equal a fresh zero-config bridge's",
    async () => {
      if (!tls) return;
      const root = copyFixture("ts");
      const lang = typescriptLanguage(root);
      await run("typescript-language-server zero-config", root, tls.config, lang, undefined, [tls]);
    },
    TIMEOUT,
  );
});

const pyright = await findPyright();
requiredUnderCI("pyright", pyright);
describe.skipIf(!pyright)("soak: pyright", () => {
  test(
    "every step's answers equal a fresh bridge's",
    async () => {
      if (!pyright) return;
      const root = copyFixture("python");
      const config = (mode: string) =>
        `${JSON.stringify({ extends: "./base.json", include: ["."], pythonVersion: "3.11", typeCheckingMode: mode })}\n`;
      // a `depend` step flips a rule in the base configuration it extends (SPEC §5.3)
      const base = (on: boolean) =>
        `${JSON.stringify({ reportUnnecessaryTypeIgnoreComment: on ? "error" : "none" })}\n`;
      await run(
        "pyright",
        root,
        pyright.config,
        {
          files: ["app.py", "geometry.py", "errors.py"],
          bad: (n) => `soak_${n}: int = "s${n}"`,
          fine: (n) => `# soak ${n}`,
          newFile: (n, broken, nested) => ({
            path: nested ? `pkg${n}/sub/soak_${n}.py` : `soak_${n}.py`,
            text: `from geometry import make_circle\n\nc${n} = make_circle(1.0)\n${broken ? `bad_${n}: int = "b"\n` : ""}`,
          }),
          setup: {
            "loose.py": "def twice(x):\n    return x * 2\n\nplain = 1  # type: ignore\n",
            "base.json": base(false),
            "pyrightconfig.json": config("standard"),
          },
          flip: (on) => ({ "pyrightconfig.json": config(on ? "strict" : "standard") }),
          depend: (on) => ({ "base.json": base(on) }),
          references: { file: "geometry.py", symbol: "make_circle" },
          rename: "new_circle",
        },
        undefined,
        undefined,
        PROPOSALS,
      );
    },
    TIMEOUT,
  );
});

/** The rust fixture with a feature that, on, compiles an error into lib.rs. */
function rustLanguage(root: string): SoakLanguage {
  const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
  const features = (on: boolean) =>
    `${cargo}\n[features]\ndefault = [${on ? '"extra"' : ""}]\nextra = []\n`;
  const lib = readFileSync(join(root, "src/lib.rs"), "utf8");
  const env = (set: boolean) => (set ? '[env]\nSOAK_FLAG = "on"\n' : "[env]\n");
  return {
    files: ["src/lib.rs", "src/report.rs", "src/shapes.rs"],
    bad: (n) => `pub fn soak_${n}() -> u32 { "s${n}" }`,
    fine: (n) => `// soak ${n}`,
    newFile: (n, broken, nested) => ({
      path: nested ? `src/deep_${n}/mod.rs` : `src/soak_${n}.rs`,
      text: `pub fn use_${n}() -> u32 { crate::report::total_area(&[]) }\n${broken ? `pub fn bad_${n}() -> u32 { "b" }\n` : ""}`,
      register: { file: "src/lib.rs", line: `pub mod ${nested ? "deep" : "soak"}_${n};` },
    }),
    setup: {
      "Cargo.toml": features(false),
      "src/lib.rs": `${lib}\n#[cfg(feature = "extra")]\npub fn gated() -> u32 { "g" }\n\npub const SOAK_FLAG: &str = env!("SOAK_FLAG");\n`,
      ".cargo/config.toml": env(true),
    },
    flip: (on) => ({ "Cargo.toml": features(on) }),
    // cargo's [env]: without the variable env!() fails (SPEC §5.3)
    depend: (on) => ({ ".cargo/config.toml": env(!on) }),
    references: { file: "src/report.rs", symbol: "total_area" },
    rename: "sum_area",
  };
}

const ra = await findRustAnalyzer();
requiredUnderCI("rust-analyzer", ra);
describe.skipIf(!ra)("soak: rust-analyzer", () => {
  test(
    "every step's answers equal a fresh bridge's",
    async () => {
      if (!ra) return;
      const root = copyFixture("rust");
      await run("rust-analyzer", root, ra.config, rustLanguage(root));
    },
    TIMEOUT,
  );
});

const bacon = await findBaconLs();
requiredUnderCI("bacon-ls", bacon);
describe.skipIf(!ra || !bacon)("soak: rust-analyzer with bacon-ls", () => {
  test(
    "every step's answers equal a fresh bridge's",
    async () => {
      if (!ra || !bacon) return;
      const root = copyFixture("rust");
      const semantics = { ...ra.config, roles: ["semantics" as const] };
      await run("rust-analyzer + bacon-ls", root, semantics, rustLanguage(root), [bacon.config]);
    },
    TIMEOUT,
  );
});

const clangd = await findClangd();
requiredUnderCI("clangd", clangd);
describe.skipIf(!clangd)("soak: clangd", () => {
  test(
    "every step's answers equal a fresh bridge's",
    async () => {
      if (!clangd) return;
      const root = materializeCFixture(undefined, "c");
      const db = readFileSync(join(root, "compile_commands.json"), "utf8");
      const util = readFileSync(join(root, "util.c"), "utf8");
      const strict = (on: boolean) => `#define SOAK_STRICT ${on ? 1 : 0}\n`;
      await run("clangd", root, clangd.config, {
        files: ["main.c", "util.c", "geometry.h"],
        bad: (n) => `int soak_${n}(void) { return undeclared_${n}; }`,
        fine: (n) => `/* soak ${n} */`,
        newFile: (n, broken, nested) => ({
          path: nested ? `deep_${n}/soak_${n}.c` : `soak_${n}.c`,
          text: `#include "${nested ? "../" : ""}geometry.h"\nint use_${n}(void) { struct point p = {1, 2}; return manhattan(p, p); }\n${broken ? `int bad_${n}(void) { return nope_${n}; }\n` : ""}`,
        }),
        setup: {
          "util.c": `${util}\n#ifdef SOAK\nint gated(void) { return nope; }\n#endif\n#include "config.h"\n#if SOAK_STRICT\nint strict(void) { return nope; }\n#endif\n`,
          "config.h": strict(false),
        },
        flip: (on) => ({
          "compile_commands.json": on ? db.replaceAll('"-std=c11"', '"-std=c11", "-DSOAK"') : db,
        }),
        // a header's macro: what util.c means changes with it (SPEC §5.3)
        depend: (on) => ({ "config.h": strict(on) }),
        references: { file: "util.c", symbol: "manhattan" },
        // no rename step: the new files lie outside the compilation database, so a fresh
        // clangd never knows them, while rename_apply opens them to rename them (SPEC §7.3),
        // and later reference lists would differ by design (test/real/rename-complete.test.ts)
      });
    },
    TIMEOUT,
  );
});

const gopls = await findGopls();
requiredUnderCI("gopls", gopls);
describe.skipIf(!gopls)("soak: gopls", () => {
  test(
    "every step's answers equal a fresh bridge's",
    async () => {
      if (!gopls) return;
      const root = copyFixture("go");
      await run("gopls", root, gopls.config, {
        files: ["main.go", "shapes/shapes.go", "broken/broken.go"],
        bad: (n) => `func soak${n}() int { return "s${n}" }`,
        fine: (n) => `// soak ${n}`,
        newFile: (n, broken) => ({
          path: `extra${n}/a.go`,
          text: `package extra${n}\n\nimport "example.com/fixture/shapes"\n\n// Use${n} sums.\nfunc Use${n}() int { return shapes.TotalArea(nil) }\n${broken ? `func bad${n}() int { return "b" }\n` : ""}`,
        }),
        references: { file: "shapes/shapes.go", symbol: "TotalArea" },
        rename: "SumArea",
      });
    },
    TIMEOUT,
  );
});
