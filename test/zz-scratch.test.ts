import { afterAll, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { closeAllBridges, startBridge, tempDir, writeConfig, REPO } from "./support/bridge.ts";
afterAll(closeAllBridges);
test("clangd", async () => {
  const root = tempDir();
  cpSync(`${REPO}/test/fixtures/c`, root, { recursive: true });
  writeFileSync(`${root}/compile_commands.json`, readFileSync(`${root}/compile_commands.json.in`, "utf8").replaceAll("{{DIR}}", root).replaceAll("{{CC}}", "/usr/bin/cc"));
  const config = writeConfig({ workspace: [{ name: "c", root, servers: ["clangd"] }], server: [{ name: "clangd", command: "/usr/bin/clangd", args: ["--background-index", "--log=error"], version: "Debian clangd version 14.0.6\nFeatures: linux+grpc\nPlatform: x86_64-pc-linux-gnu", languages: ["c"], extensions: { c: "c", h: "c" }, roles: ["semantics", "diagnostics"], ready: { warmup_open: "**/*.c", progress: ["backgroundIndexProgress"] } }] });
  const b = await startBridge({ config, env: { THEODOLITE_LOG_LEVEL: "debug" } });
  let t = performance.now();
  const st = await b.call("session_status", { start: true });
  console.log("start", performance.now() - t, JSON.stringify((st.structured.sessions as any)[0].readiness));
  t = performance.now();
  for (const [tool, args] of [["definition", { file: "main.c", line: 6, symbol: "manhattan" }], ["declaration", { file: "main.c", line: 6, symbol: "manhattan" }], ["references", { file: "geometry.h", line: 10, symbol: "manhattan" }], ["hover", { file: "main.c", line: 6, symbol: "manhattan" }], ["document_symbols", { file: "geometry.h" }], ["workspace_symbols", { query: "manh" }], ["diagnostics", { file: "main.c" }], ["rename_preview", { file: "main.c", line: 6, symbol: "manhattan", new_name: "taxicab" }], ["code_actions", { file: "main.c", line: 6, column: 1 }]] as const) {
    const r = await b.call(tool, args as any);
    console.log(tool, performance.now() - t, r.text.slice(0, 600));
    t = performance.now();
  }
  console.log(b.stderr().slice(-3000));
}, 60000);
