/**
 * A tiny language server for the readiness benchmark (the fake server in test/ has no
 * `$/progress` yet). On the first didOpen it creates a work-done token and begins
 * "bench indexing", then writes `--marker`. It ends the task only when the benchmark
 * sends it SIGUSR1, and writes to `--stamp` the wall-clock time (epoch ms, sub-ms
 * precision: performance.timeOrigin + performance.now(), comparable across processes)
 * at which it sent the end. Run: `bun bench/progress-ls.ts --stamp F --marker F`.
 */
import { renameSync, writeFileSync } from "node:fs";
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

export const PROGRESS_TITLE = "bench indexing";
const TOKEN = "bench-index";

function argOf(name: string): string {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? process.argv[at + 1] : undefined;
  if (value === undefined) {
    process.stderr.write(`progress-ls: ${name} FILE is required\n`);
    process.exit(2);
  }
  return value;
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

function main(): void {
  const stampFile = argOf("--stamp");
  const markerFile = argOf("--marker");
  const conn = createMessageConnection(
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(process.stdout),
  );
  let shutdown = false;
  let begun = false;
  let ended = false;

  conn.onRequest("initialize", () => ({
    capabilities: { textDocumentSync: 1, workspaceSymbolProvider: true },
    serverInfo: { name: "bench-progress-ls", version: "0.0.0" },
  }));
  conn.onRequest("workspace/symbol", () => []);
  conn.onRequest("shutdown", () => {
    shutdown = true;
    return null;
  });
  conn.onNotification("exit", () => process.exit(shutdown ? 0 : 1));
  conn.onNotification("textDocument/didOpen", async () => {
    if (begun) return;
    begun = true;
    await conn.sendRequest("window/workDoneProgress/create", { token: TOKEN });
    await conn.sendNotification("$/progress", {
      token: TOKEN,
      value: { kind: "begin", title: PROGRESS_TITLE, percentage: 0 },
    });
    await conn.sendNotification("$/progress", {
      token: TOKEN,
      value: { kind: "report", message: "1/2", percentage: 50 },
    });
    writeAtomically(markerFile, String(process.pid));
  });
  process.on("SIGUSR1", () => {
    if (!begun || ended) return;
    ended = true;
    const at = epochMs();
    void conn
      .sendNotification("$/progress", { token: TOKEN, value: { kind: "end", message: "done" } })
      .then(() => writeAtomically(stampFile, String(at)));
  });
  process.stdin.on("end", () => process.exit(shutdown ? 0 : 1));
  conn.listen();
}

if (import.meta.main) main();
