/**
 * bacon-ls through the compiled bridge (SPEC §11 real servers): ready with no condition,
 * diagnostics settled by the end of its `checking` run (SPEC §6 "progress") — complete on
 * the first call of fresh sessions although it publishes a partial snapshot first — and,
 * after a file changed on disk, only the run that checked the new content counts (the
 * answer equals a fresh bridge's). Then bridge.toml.example's "app" workspace end to end:
 * rust-analyzer answers semantics, bacon-ls alone answers diagnostics.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BridgeHandle, startBridge, writeConfig } from "../support/bridge.ts";
import { findBaconLs, PINNED_VERSION_OUTPUT } from "../support/built-servers.ts";
import {
  filledServer,
  readExample,
  serverTable,
  workspaceTable,
} from "../support/example-config.ts";
import { languageSuite } from "../support/language-suite.ts";
import { Prng } from "../support/prng.ts";
import {
  diagnosticsFor,
  fails,
  locs,
  ok,
  range,
  readyByState,
  startRealBridge,
} from "../support/real-bridge.ts";
import { findRustAnalyzer } from "../support/real-servers.ts";

const bacon = await findBaconLs();
const ra = await findRustAnalyzer();

/** rust-errors src/lib.rs as bacon-ls reports it (test/fixtures/README.md). */
const E0308 = {
  file: "src/lib.rs",
  ...range(4, 22, 4, 29),
  severity: "error",
  source: "bacon-ls",
  message:
    "error[E0308]: mismatched types\n --> src/lib.rs:4:22\n  |\n" +
    '4 |     let total: u32 = "three";\n' +
    "  |                ---   ^^^^^^^ expected `u32`, found `&str`\n" +
    "  |                |\n  |                expected due to this",
  channels: ["push"],
};
/** Its range is 2 columns short: bacon-ls sends rustc's code-point column as UTF-16. */
const E0425 = {
  file: "src/lib.rs",
  ...range(9, 38, 9, 51),
  severity: "error",
  source: "bacon-ls",
  message:
    "error[E0425]: cannot find value `missing_value` in this scope\n --> src/lib.rs:9:40\n  |\n" +
    '9 |     let text = "🧨💥 boom"; text.len() + missing_value\n' +
    "  |                                          ^^^^^^^^^^^^^ not found in this scope",
  channels: ["push"],
};

const CLEAN_FILES = ["src/lib.rs", "src/main.rs", "src/report.rs", "src/shapes.rs"];

const suite = languageSuite(
  {
    server: "bacon-ls",
    fixture: "rust",
    installed: (b) => expect(b.version).toBe(PINNED_VERSION_OUTPUT.baconLs),
    // ready with no condition
    ready: [],
    encoding: "utf-16",
    // a clean crate has none, per file (and workspace-wide, below)
    clean: CLEAN_FILES,
    // workspace-wide: it publishes only for files with diagnostics, so no file is listed
    workspace: { files: [], items: [] },
    // its first publish holds 1 of the 2 errors: the answer waits for the run's end
    fresh: { fixture: "rust-errors", file: "src/lib.rs", items: [E0308, E0425], ready: [] },
  },
  bacon,
);

describe.skipIf(!bacon)("bacon-ls alone", () => {
  test("after a fix on disk: the check of the new content, equal to a fresh bridge's", async () => {
    const root = suite.fixture("rust-errors");
    await using bridge = await startRealBridge(root, suite.config());
    expect((await ok(bridge, "diagnostics", { file: "src/lib.rs" })).total).toBe(2);
    const lib = join(root, "src", "lib.rs");
    writeFileSync(lib, readFileSync(lib, "utf8").replace('"three"', "3"));
    // didChange + didSave; bacon-ls checks again on the save, and only that run counts
    const after = await ok(bridge, "diagnostics", { file: "src/lib.rs" });
    expect(after).toEqual(diagnosticsFor(["src/lib.rs"], [E0425]));
    await using fresh = await startRealBridge(root, suite.config());
    expect(await ok(fresh, "diagnostics", { file: "src/lib.rs" })).toEqual(after);
  });
});

describe.skipIf(!bacon)("bacon-ls with no crate at the root (SPEC §3.4)", () => {
  test("a polyglot root with the crate in ledger/: a typed error, never an empty answer", async () => {
    const root = suite.fixture("python");
    mkdirSync(join(root, "ledger"));
    cpSync(suite.fixture("rust-errors"), join(root, "ledger"), { recursive: true });
    await using bridge = await startRealBridge(root, suite.config());
    const err = await fails(bridge, "diagnostics", { file: "ledger/src/lib.rs" });
    expect(err.code).toBe("WorkspaceFileMissing");
    expect(err.hint).toContain("Cargo.toml");
  });
});

describe.skipIf(!bacon)("bacon-ls deltas (SPEC §6.1)", () => {
  test("lines inserted above both errors: its rendered messages name new lines, nothing moves", async () => {
    const root = suite.fixture("rust-errors");
    await using bridge = await startRealBridge(root, suite.config());
    const before = await ok(bridge, "diagnostics", { file: "src/lib.rs" });
    expect(before.total).toBe(2);
    const lib = join(root, "src", "lib.rs");
    writeFileSync(lib, `// one\n// two\n${readFileSync(lib, "utf8")}`);
    const delta = await ok(bridge, "diagnostics", { file: "src/lib.rs", since: before.snapshot });
    expect({ added: delta.added, removed: delta.removed, unchanged: delta.unchanged }).toEqual({
      added: [],
      removed: [],
      unchanged: 2,
    });
  });
});

describe.skipIf(!bacon)("bacon-ls: every change reaches its check (SPEC §5.3)", () => {
  /** An error appended to a file: one E0308 in that file. */
  const BROKEN = '\npub fn broken() -> u32 { "x" }\n';
  /** A feature that, switched on in Cargo.toml, compiles an error into lib.rs. */
  const GATED = '\n#[cfg(feature = "extra")]\npub fn gated() -> u32 { "y" }\n';
  const TARGETS = ["src/report.rs", "src/shapes.rs", "Cargo.toml"] as const;

  /** Which files hold an error now: what a fresh check of the crate reports. */
  function expected(state: Record<string, boolean>): Record<string, number> {
    const out: Record<string, number> = {};
    if (state["src/report.rs"]) out["src/report.rs"] = 1;
    if (state["src/shapes.rs"]) out["src/shapes.rs"] = 1;
    if (state["Cargo.toml"]) out["src/lib.rs"] = 1;
    return out;
  }

  const canon = (m: Record<string, number>) => JSON.stringify(Object.entries(m).sort());

  function errorsByFile(r: Record<string, unknown>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const d of r.diagnostics as { file: string; severity: string; message: string }[]) {
      if (d.severity === "error" && d.message.includes("E0308"))
        out[d.file] = (out[d.file] ?? 0) + 1;
    }
    return out;
  }

  test("40 seeded edits of files it never opened and of Cargo.toml: no answer one change behind", async () => {
    const root = suite.fixture("rust");
    const original = Object.fromEntries(
      [...TARGETS, "src/lib.rs"].map((f) => [f, readFileSync(join(root, f), "utf8")]),
    );
    // the gated error is in lib.rs from the start; only the feature switches it on
    writeFileSync(join(root, "src/lib.rs"), original["src/lib.rs"] + GATED);
    writeFileSync(
      join(root, "Cargo.toml"),
      `${original["Cargo.toml"]}\n[features]\ndefault = []\nextra = []\n`,
    );
    const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
    await using bridge = await startRealBridge(root, suite.config());
    const rng = new Prng(Prng.derive(28, "bacon-ls saves"));
    const state: Record<string, boolean> = {};
    const wrong: string[] = [];
    expect(errorsByFile(await ok(bridge, "diagnostics", { file: "src/main.rs" }))).toEqual({});
    for (let step = 0; step < 40; step++) {
      const target = rng.pick(TARGETS);
      state[target] = !state[target];
      if (target === "Cargo.toml") {
        const on = cargo.replace("default = []", 'default = ["extra"]');
        writeFileSync(join(root, target), state[target] ? on : cargo);
      } else {
        writeFileSync(join(root, target), original[target] + (state[target] ? BROKEN : ""));
      }
      // asked about a file it has open (main.rs), or the whole workspace
      const r = rng.chance(0.5)
        ? await ok(bridge, "diagnostics", { file: "src/main.rs" })
        : await ok(bridge, "diagnostics");
      const got = r.files && (r.files as string[]).length > 1 ? errorsByFile(r) : undefined;
      const want = expected(state);
      if (got !== undefined && canon(got) !== canon(want)) {
        wrong.push(`step ${step} (${target}): ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
      }
      if (got === undefined) {
        // the file answer holds main.rs only: the workspace answer must agree with the state
        const all = errorsByFile(await ok(bridge, "diagnostics"));
        if (canon(all) !== canon(want)) {
          wrong.push(`step ${step} (${target}): ${JSON.stringify(all)} ≠ ${JSON.stringify(want)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe.skipIf(!bacon || !ra)(
  "bridge.toml.example's app workspace: rust-analyzer + bacon-ls",
  () => {
    let bridge: BridgeHandle;
    beforeAll(async () => {
      if (!bacon || !ra) return;
      const example = readExample();
      const app = workspaceTable(example, "app");
      expect(app.servers).toEqual(["rust-analyzer", "bacon-ls"]);
      const raTable = filledServer(serverTable(example, "rust-analyzer"), ra);
      // the measured fixture answers were taken without cache priming (test/fixtures/README.md)
      expect(raTable.roles).toEqual(["semantics"]);
      const config = writeConfig({
        bridge: example.bridge,
        workspace: [{ ...app, root: suite.fixture("rust-errors") }],
        server: [raTable, filledServer(serverTable(example, "bacon-ls"), bacon)],
      });
      bridge = await startBridge({ config });
    });
    afterAll(() => bridge?.close());

    test("both sessions start ready: rust-analyzer by its conditions, bacon-ls with none", async () => {
      const status = await ok(bridge, "session_status", { start: true });
      const sessions = status.sessions as Record<string, unknown>[];
      // in the workspace's configured order
      expect(sessions.map((s) => `${s.server} ${s.state}`)).toEqual([
        "rust-analyzer ready",
        "bacon-ls ready",
      ]);
      readyByState(sessions[0]!, ["quiescent", "probe workspace/symbol"]);
      readyByState(sessions[1]!, []);
    });

    test("semantics come from rust-analyzer", async () => {
      const hover = await ok(bridge, "hover", { file: "src/lib.rs", line: 9, symbol: "len" });
      expect(hover.text as string).toContain("pub const fn len(&self) -> usize");
      const def = await ok(bridge, "definition", { file: "src/lib.rs", line: 5, symbol: "total" });
      expect(locs(def)).toEqual(["src/lib.rs 4:9–4:14"]);
    });

    test("diagnostics come from bacon-ls alone (no rust-analyzer pull, no cargo-check push)", async () => {
      expect(await ok(bridge, "diagnostics", { file: "src/lib.rs" })).toEqual(
        diagnosticsFor(["src/lib.rs"], [E0308, E0425]),
      );
      expect(await ok(bridge, "diagnostics")).toEqual(
        diagnosticsFor(["src/lib.rs"], [E0308, E0425], false),
      );
    });
  },
);
