import { afterAll, test } from "bun:test";
import { cpSync } from "node:fs";
import { prepareRustSrcPath } from "./support/rust-src.ts";
import { closeAllBridges, startBridge, tempDir, writeConfig, REPO } from "./support/bridge.ts";
afterAll(closeAllBridges);
const S = `${REPO}/test/servers/node_modules/.bin`;
const servers: any = {
  ts: { fixture: "ts", file: "src/main.ts", line: 4, symbol: "totalArea", server: { name: "tls", command: `${S}/typescript-language-server`, args: ["--stdio"], version: "5.3.0", languages: ["typescript"], extensions: { ts: "typescript" }, roles: ["semantics", "diagnostics"], initialization_options: { disableAutomaticTypingAcquisition: true }, diagnostics_settle: "publish", ready: { warmup_open: "**/*.ts", progress: ["Initializing JS/TS"] } } },
  py: { fixture: "python", file: "app.py", line: 1, symbol: "Circle", server: { name: "pyright", command: `${S}/pyright-langserver`, args: ["--stdio"], version: "pyright 1.1.414", version_command: [`${S}/pyright`, "--version"], languages: ["python"], extensions: { py: "python" }, roles: ["semantics", "diagnostics"], ready: { log_message: "Found \\d+ source file" } } },
  rs: { fixture: "rust", file: "src/main.rs", line: 1, symbol: "fn", server: { name: "ra", command: "/usr/bin/rust-analyzer", version: "rust-analyzer 1.96.0", languages: ["rust"], extensions: { rs: "rust" }, roles: ["semantics", "diagnostics"], env: { CARGO_NET_OFFLINE: "true", RUST_SRC_PATH: prepareRustSrcPath() ?? "" }, diagnostics_settle: "quiescent", ready: { quiescent: true, probe: { method: "workspace/symbol", params: { query: "" } } } } },
};
for (const [k, s] of Object.entries(servers) as any) {
  test(k, async () => {
    const root = tempDir();
    cpSync(`${REPO}/test/fixtures/${s.fixture}`, root, { recursive: true });
    const config = writeConfig({ workspace: [{ name: "w", root, servers: [s.server.name] }], server: [s.server] });
    const b = await startBridge({ config, env: { THEODOLITE_LOG_LEVEL: "debug" } });
    let t = performance.now();
    const st = await b.call("session_status", { start: true });
    console.log(k, "start", performance.now() - t, JSON.stringify((st.structured.sessions as any)[0]).slice(0, 1500));
    t = performance.now();
    for (const [tool, args] of [["definition", { file: s.file, line: s.line, symbol: s.symbol }], ["hover", { file: s.file, line: s.line, symbol: s.symbol }], ["references", { file: s.file, line: s.line, symbol: s.symbol }], ["document_symbols", { file: s.file }], ["diagnostics", {}], ["diagnostics", { file: s.file }]] as const) {
      const r = await b.call(tool, args as any);
      console.log(k, tool, (performance.now() - t).toFixed(0), r.text.slice(0, 400));
      t = performance.now();
    }
    console.log(b.stderr().split("\n").filter(l => !l.includes("stderr:")).slice(-15).join("\n"));
  }, 120000);
}
