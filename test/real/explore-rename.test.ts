import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanupTempDirs, closeAllBridges } from "../support/bridge.ts";
import { ok, startRealBridge } from "../support/real-bridge.ts";
import { findClangd } from "../support/real-servers.ts";

const GATED = { bridge: { mutation: "gated", mutation_allowlist: ["ci-gate"] }, clientName: "ci-gate" };
const clangd = await findClangd();
afterAll(async () => { await closeAllBridges(); cleanupTempDirs(); });

function cdb(root: string, files: string[]) {
  writeFileSync(join(root, "compile_commands.json"), JSON.stringify(files.map((f) => ({ directory: root, file: join(root, f), arguments: ["cc", "-std=c11", "-c", f] }))));
}
function ws(n: number): { root: string; files: string[] } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "explore-c-")));
  writeFileSync(join(root, "util.h"), "int compute(int v);\n");
  writeFileSync(join(root, "util.c"), '#include "util.h"\nint compute(int v) { return v + 1; }\n');
  const files = ["util.c"];
  for (let i = 1; i <= n; i++) { writeFileSync(join(root, `f${i}.c`), `#include "util.h"\nint f${i}(void) { return compute(${i}); }\n`); files.push(`f${i}.c`); }
  writeFileSync(join(root, "other.c"), '#include "util.h"\nint other(void) { return 0; }\n'); files.push("other.c");
  cdb(root, files);
  return { root, files };
}

test("explore", async () => {
  if (!clangd) return;
  for (const scenario of ["db", "nodb", "edit"]) {
    const { root, files } = ws(12);
    const bridge = await startRealBridge(root, clangd.config, GATED);
    const p0 = await ok(bridge, "rename_preview", { file: "util.c", line: 2, symbol: "compute", new_name: "calc" });
    console.log(scenario, "before", (p0.changes as {file:string}[]).map((c) => c.file).join(","));
    if (scenario === "db") { writeFileSync(join(root, "new.c"), '#include "util.h"\nint g(void) { return compute(9); }\n'); cdb(root, [...files, "new.c"]); }
    if (scenario === "nodb") { writeFileSync(join(root, "new.c"), '#include "util.h"\nint g(void) { return compute(9); }\n'); }
    if (scenario === "edit") { writeFileSync(join(root, "other.c"), '#include "util.h"\nint other(void) { return compute(0); }\n'); }
    const t0 = Date.now();
    const r = await bridge.call("rename_apply", { file: "util.c", line: 2, symbol: "compute", new_name: "calc" });
    console.log(scenario, Date.now() - t0, "ms", r.isError ? r.text : (r.structured.changes as {file:string}[]).map((c) => c.file).join(","));
    const left = ["new.c", "other.c"].filter((f) => { try { return /\bcompute\b/.test(readFileSync(join(root, f), "utf8")); } catch { return false; } });
    console.log(scenario, "left:", left);
    await bridge.close();
    rmSync(root, { recursive: true, force: true });
  }
}, 300_000);
