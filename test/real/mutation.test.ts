/**
 * The mutation class with real servers (SPEC §7): a gated bridge whose client is
 * on the allowlist applies clangd's quick-fix by handle (refused, EditIncomplete, when another
 * file changed after the listing), and rust-analyzer's rename across files; each result is then checked by the server itself (diagnostics) or by the
 * language's own compiler (`cargo check`).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeBridgesAndTempDirs } from "../support/bridge.ts";
import {
  anyEditSet,
  ok,
  renameEdit,
  requiredServer,
  startRealBridge,
} from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findRustAnalyzer,
  fixturePath,
  materializeCFixture,
} from "../support/real-servers.ts";

const GATED = {
  bridge: { mutation: "gated", mutation_allowlist: ["ci-gate"] },
  clientName: "ci-gate",
};

const clangd = await requiredServer("clangd", findClangd);
const ra = await requiredServer("rust-analyzer", findRustAnalyzer);

afterAll(closeBridgesAndTempDirs);

describe.skipIf(!clangd)("clangd quick-fix through code_action_apply", () => {
  test("the handle applies the fix; the file and clangd's diagnostics change accordingly", async () => {
    if (!clangd) return;
    const root = materializeCFixture(undefined, "c-errors");
    await using bridge = await startRealBridge(root, clangd.config, GATED);
    const listing = await ok(bridge, "code_actions", {
      file: "broken.c",
      line: 7,
      symbol: "cuont",
    });
    const actions = listing.actions as { title: string; handle?: string }[];
    expect(actions.map((a) => a.title)).toEqual(["change 'cuont' to 'count'"]);
    const handle = actions[0]?.handle;
    expect(handle).toBeString();

    const applied = await ok(bridge, "code_action_apply", { handle });
    expect(applied).toEqual({ applied: true, changes: [{ file: "broken.c", edits: 1 }] });

    const text = readFileSync(join(root, "broken.c"), "utf8");
    const original = readFileSync(join(fixturePath("c-errors"), "broken.c"), "utf8");
    expect(text).toBe(original.replace("return cuont + 1;", "return count + 1;"));
    expect(text).not.toContain("cuont");

    // the bridge resynced the file: clangd now reports only the missing member
    const after = await ok(bridge, "diagnostics", { file: "broken.c" });
    expect(after.diagnostics).toEqual([
      {
        file: "broken.c",
        line: 11,
        column: 13,
        end_line: 11,
        end_column: 17,
        severity: "error",
        code: "no_member",
        source: "clang",
        message: "No member named 'size' in 'struct counter'",
        channels: ["push"],
      },
    ]);
    // single use: the same handle again is refused by the gate
    const again = await bridge.call("code_action_apply", { handle });
    expect(again.isError).toBe(true);
    expect(again.structured.code).toBe("GateDenied");
    expect((again.structured.details as { reason: string }).reason).toBe("used");

    const status = await ok(bridge, "session_status");
    const decisions = status.gate_decisions as { tool: string; allow: boolean }[];
    expect(decisions.map((d) => [d.tool, d.allow])).toEqual([
      ["code_action_apply", true],
      ["code_action_apply", false],
    ]);
  });
});

describe.skipIf(!clangd)("clangd code_action_apply after another file changed", () => {
  test("refused naming the file (EditIncomplete); listed again with it loaded, the fix applies", async () => {
    if (!clangd) return;
    const root = materializeCFixture(undefined, "c-errors");
    await using bridge = await startRealBridge(root, clangd.config, GATED);
    const at = { file: "broken.c", line: 7, symbol: "cuont" };
    const handleOf = async () =>
      ((await ok(bridge, "code_actions", at)).actions as { handle?: string }[])[0]?.handle;
    const first = await handleOf();
    writeFileSync(join(root, "other.c"), "int other(void) { return 0; }\n");
    const refused = await bridge.call("code_action_apply", { handle: first });
    expect(refused.structured.code).toBe("EditIncomplete");
    expect(refused.structured.details).toEqual({
      reason: "changed_since_listing",
      files: ["other.c"],
      count: 1,
    });
    expect(readFileSync(join(root, "broken.c"), "utf8")).toContain("cuont");
    const applied = await ok(bridge, "code_action_apply", { handle: await handleOf() });
    expect(applied).toEqual({ applied: true, changes: [{ file: "broken.c", edits: 1 }] });
    expect(readFileSync(join(root, "broken.c"), "utf8")).not.toContain("cuont");
  });
});

describe.skipIf(!ra)("rust-analyzer rename_apply across files", () => {
  test("total_area → sum_area from its definition; every referencing file changes; cargo check passes", async () => {
    if (!ra) return;
    const root = copyFixture("rust");
    const before = (f: string) => readFileSync(join(fixturePath("rust"), f), "utf8");
    const bridge = await startRealBridge(root, ra.config, GATED);
    try {
      const r = await ok(bridge, "rename_apply", {
        file: "src/report.rs",
        line: 4,
        symbol: "total_area",
        new_name: "sum_area",
      });
      const edit = renameEdit("sum_area");
      expect(r).toEqual({
        applied: true,
        new_name: "sum_area",
        edit_set: anyEditSet(),
        changes: [
          { file: "src/main.rs", edits: [edit(1, 33, 43), edit(6, 39, 49)] },
          { file: "src/report.rs", edits: [edit(4, 8, 18)] },
        ],
      });
      for (const f of ["src/main.rs", "src/report.rs"]) {
        const text = readFileSync(join(root, f), "utf8");
        expect(text).toBe(before(f).replaceAll("total_area", "sum_area"));
      }
      for (const f of ["src/lib.rs", "src/shapes.rs"]) {
        expect(readFileSync(join(root, f), "utf8")).toBe(before(f));
      }
      // the server saw the new text: the new name resolves
      const def = await ok(bridge, "definition", {
        file: "src/main.rs",
        line: 6,
        symbol: "sum_area",
      });
      expect(def.locations).toEqual([
        { file: "src/report.rs", line: 4, column: 8, end_line: 4, end_column: 16 },
      ]);
    } finally {
      await bridge.close();
    }
    const cargo = ra.config.env.CARGO;
    if (!cargo) throw new Error("no cargo beside rust-analyzer (apt-get install cargo-web)");
    const check = Bun.spawnSync([cargo, "check", "--offline", "--quiet"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ...ra.config.env,
        CARGO_NET_OFFLINE: "true",
      },
      stdout: "pipe",
      stderr: "pipe",
      timeout: 120_000,
    });
    expect(check.stderr.toString()).toBe("");
    expect(check.exitCode).toBe(0);
  });
});
