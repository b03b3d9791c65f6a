/**
 * cclsp, a peer MCP-to-LSP bridge (a Node script), driven beside theodolite and the direct
 * client on the same server binary and a third copy of the workspace. Pinned in
 * bench/peers/package.json and installed from its bun.lock on first use; it runs under
 * `node` when that is on PATH (as its users run it), else under bun.
 *
 * cclsp answers in prose, so item counts are read off its text: one `path:line:col` line per
 * location, one `• name (kind) at …` line per workspace symbol. Its definition and
 * references take a symbol name and a file instead of a position: it asks the server for
 * the file's document symbols and then for the definition or references at each matching
 * symbol's selection start, so the spots used for those rows are declarations, where the
 * direct client and theodolite send the same position cclsp ends up sending.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../src/config/types.ts";
import { sanitizedEnv } from "../src/process/env.ts";
import { removeServerTmp, withServerTmp } from "../test/support/server-tmp.ts";
import { RawMcpClient } from "./mcp-raw.ts";

const PEERS_DIR = join(import.meta.dir, "peers");
const CCLSP_MAIN = join(PEERS_DIR, "node_modules", "cclsp", "dist", "index.js");
/** bound on cclsp's first answer that matches the direct client's (its server indexing) */
const PEER_READY_TIMEOUT_MS = 300_000;

/** Install the pinned peers once (bun install --frozen-lockfile); the cclsp entry point. */
export function ensurePeers(): string {
  if (!existsSync(CCLSP_MAIN)) {
    const r = Bun.spawnSync(["bun", "install", "--frozen-lockfile", "--cwd", PEERS_DIR], {
      stdout: "pipe",
      stderr: "pipe",
    });
    if (r.exitCode !== 0 || !existsSync(CCLSP_MAIN)) {
      throw new Error(`installing bench/peers failed: ${r.stderr.toString().slice(-500)}`);
    }
  }
  return CCLSP_MAIN;
}

export function cclspVersion(): string {
  const pkg = readFileSync(join(PEERS_DIR, "node_modules", "cclsp", "package.json"), "utf8");
  return (JSON.parse(pkg) as { version: string }).version;
}

export interface Peer {
  client: RawMcpClient;
  root: string;
  /** cclsp's text answer → item count */
  call(tool: string, args: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

/** Locations (`…:line:col` lines), workspace symbols (`• …` lines) or one hover. */
export function countPeerItems(tool: string, text: string): number {
  const lines = text.split("\n");
  if (tool === "get_hover") return text.startsWith("Hover information") ? 1 : 0;
  if (tool === "find_workspace_symbols") return lines.filter((l) => l.startsWith("• ")).length;
  return lines.filter((l) => /:\d+:\d+$/.test(l) && !l.startsWith("Results for ")).length;
}

/** cclsp on `root` for one server (the same binary, args and initialization options). */
export async function startPeer(
  server: ServerConfig,
  root: string,
  configDir: string,
  extensions: string[],
  requiredArgs: string[],
): Promise<Peer> {
  const main = ensurePeers();
  const config = join(configDir, "cclsp.json");
  writeFileSync(
    config,
    JSON.stringify({
      servers: [
        {
          extensions,
          command: [server.command, ...server.args, ...requiredArgs],
          rootDir: root,
          ...(server.initialization_options === null
            ? {}
            : { initializationOptions: server.initialization_options }),
        },
      ],
    }),
  );
  const node = Bun.which("node");
  // the server cclsp starts gets its own TMPDIR, as the bridge's do (SPEC §9.2)
  const { env, tmp } = withServerTmp(sanitizedEnv(server));
  const client = new RawMcpClient({
    binary: node ?? process.execPath,
    args: [main],
    env: { ...env, CCLSP_CONFIG_PATH: config },
    cwd: root,
    // cclsp writes several debug lines per symbol to stderr; a client would log them
    // somewhere, the cheapest place is fairest to it
    stderr: "ignore",
    afterInterrupt: () => removeServerTmp(tmp),
  });
  await client.initialize();
  const call = async (tool: string, args: Record<string, unknown>): Promise<number> => {
    const reply = await client.request("tools/call", { name: tool, arguments: args });
    if (reply.error) throw new Error(`cclsp ${tool}: ${reply.error.message}`);
    const r = reply.result as { content?: { text?: string }[]; isError?: boolean };
    const text = r.content?.map((c) => c.text ?? "").join("\n") ?? "";
    if (r.isError) throw new Error(`cclsp ${tool} failed: ${text.slice(0, 300)}`);
    return countPeerItems(tool, text);
  };
  const close = async (): Promise<void> => {
    await client.close();
    removeServerTmp(tmp);
  };
  return { client, root, call, close };
}

/**
 * Wait until cclsp answers `probe` with `want` items (its server has indexed what the direct
 * client waited for: cclsp has no readiness of its own), re-asking on each answer.
 */
export async function waitPeerAnswers(
  probe: () => Promise<number>,
  want: number,
  what: string,
): Promise<void> {
  const deadline = performance.now() + PEER_READY_TIMEOUT_MS;
  let got = -1;
  while (performance.now() < deadline) {
    got = await probe();
    if (got === want) return;
    await new Promise((resolve) => setTimeout(resolve, 100)); // a re-ask, not a settle wait
  }
  throw new Error(`cclsp never answered ${what} with ${want} items (last ${got}) in time`);
}
