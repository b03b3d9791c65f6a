/**
 * The floor of any MCP-to-LSP bridge on this runtime: a relay with none of theodolite's
 * work (no supervisor, no confined reads, no following the disk, no column conversion, no
 * ordering, cap or envelope) — an MCP request in, the LSP request out through the bench's
 * direct client (vscode-jsonrpc, as the bridge uses), its answer back as JSON text. It
 * speaks just enough of theodolite's surface for `bench/overhead.ts` to drive it in the
 * bridge's place (`bun bench/floor.ts` compiles it with the bridge's JIT policy and runs
 * that benchmark on it): the read tools with theodolite's arguments, `session_status`
 * answering once the server is ready. Positions are passed through (the fixtures' spots
 * are ASCII, where a column is the LSP character plus one). A measuring instrument, never
 * a product: it trusts its arguments, the server and the disk.
 */
import { join } from "node:path";
import { loadConfigFile } from "../src/config/load.ts";
import type { ServerConfig, WorkspaceConfig } from "../src/config/types.ts";
import { languageIdFor } from "../src/session/hooks.ts";
import { prepareWorkspaceFiles } from "../src/workspace/requirements.ts";
import { DirectLsp } from "./lsp-direct.ts";

const READY_TIMEOUT_MS = 300_000;

/** The first workspace and server of the bridge configuration the benchmark wrote. */
function configured(): { workspace: WorkspaceConfig; server: ServerConfig } {
  const config = loadConfigFile(process.argv[process.argv.indexOf("--config") + 1] ?? "");
  const workspace = config.workspaces[0];
  const server = config.servers[0];
  if (workspace === undefined || server === undefined) throw new Error("no server configured");
  return { workspace, server };
}

const { workspace, server } = configured();
const root = workspace.root;
// the args the bridge appends from the server's `requires` (clangd: its compile database)
const lsp = new DirectLsp(server, root, prepareWorkspaceFiles(workspace, server, null).args);

let ready: Promise<void> | undefined;
const start = (): Promise<void> => {
  ready ??= lsp.startReady(READY_TIMEOUT_MS);
  return ready;
};

async function document(file: string): Promise<{ uri: string }> {
  const abs = join(root, file);
  return { uri: await lsp.openFile(abs, languageIdFor(server, abs)) };
}

type Args = Record<string, unknown>;
const position = (a: Args) => ({
  line: (a.line as number) - 1,
  character: (a.column as number) - 1,
});
const count = (r: unknown) => (Array.isArray(r) ? r.length : r === null ? 0 : 1);

const TOOLS: Record<string, (a: Args) => Promise<[unknown, Args]>> = {
  async session_status(a) {
    if (a.start === true) await start();
    return [null, { sessions: [{ state: "ready", pids: { supervisor: null } }] }];
  },
  async hover(a) {
    const r = await lsp.request("textDocument/hover", {
      textDocument: await document(a.file as string),
      position: position(a),
    });
    return [r, { total: count(r) }];
  },
  async definition(a) {
    const r = await lsp.request("textDocument/definition", {
      textDocument: await document(a.file as string),
      position: position(a),
    });
    return [r, { total: count(r) }];
  },
  async references(a) {
    const r = await lsp.request("textDocument/references", {
      textDocument: await document(a.file as string),
      position: position(a),
      context: { includeDeclaration: true },
    });
    return [r, { total: count(r) }];
  },
  async document_symbols(a) {
    const r = await lsp.request("textDocument/documentSymbol", {
      textDocument: await document(a.file as string),
    });
    return [r, { total: count(r) }];
  },
  async workspace_symbols(a) {
    const r = await lsp.request("workspace/symbol", { query: a.query });
    return [r, { total: count(r) }];
  },
};

interface Message {
  id?: number | string;
  method?: string;
  params?: { name?: string; arguments?: Args; protocolVersion?: string };
}

const out = Bun.stdout.writer();
function reply(id: Message["id"], result: unknown): void {
  out.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
  out.flush();
}

async function handle(m: Message): Promise<void> {
  if (m.id === undefined) return; // notifications
  if (m.method === "initialize") {
    reply(m.id, {
      protocolVersion: m.params?.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "floor-relay", version: "0" },
    });
  } else if (m.method === "tools/list") {
    reply(m.id, {
      tools: Object.keys(TOOLS).map((name) => ({ name, inputSchema: { type: "object" } })),
    });
  } else if (m.method === "tools/call") {
    const tool = TOOLS[m.params?.name ?? ""];
    if (tool === undefined) {
      reply(m.id, { isError: true, content: [{ type: "text", text: '{"code":"unsupported"}' }] });
      return;
    }
    try {
      const [raw, structured] = await tool(m.params?.arguments ?? {});
      reply(m.id, {
        content: [{ type: "text", text: JSON.stringify(raw) }],
        structuredContent: structured,
      });
    } catch (err) {
      // the benchmark's callOk reports it: the run stops with the server's error
      const text = JSON.stringify({ code: "ServerError", message: String(err) });
      reply(m.id, { isError: true, content: [{ type: "text", text }] });
    }
  } else {
    const error = { code: -32601, message: `method not found: ${m.method}` };
    out.write(`${JSON.stringify({ jsonrpc: "2.0", id: m.id, error })}\n`);
    out.flush();
  }
}

let pending = "";
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) {
  pending += decoder.decode(chunk, { stream: true });
  let nl = pending.indexOf("\n");
  while (nl >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (line.trim() !== "") void handle(JSON.parse(line) as Message);
    nl = pending.indexOf("\n");
  }
}
await lsp.stop();
process.exit(0);
