/**
 * The MCP stdio server's run loop: configuration, logging, our stdio
 * transport (SPEC §4.8), and the shutdown path when the transport closes —
 * stdin EOF or a stdout the client closed (SPEC §9.2). No SIGTERM handler by
 * design: supervisors notice the bridge is gone and reap their trees.
 */
import { bounded } from "./bounded.ts";
import { BridgeContext } from "./bridge.ts";
import { Collector } from "./collector.ts";
import { loadConfigFile, resolveConfigPath } from "./config/load.ts";
import type { Config } from "./config/types.ts";
import { toEnvelope } from "./errors.ts";
import { log, parseLogLevel } from "./log.ts";
import { attachLogFile } from "./log-file.ts";
import { installMicrotaskRuntime } from "./lsp/runtime.ts";
import { createMcpConnection } from "./mcp/server.ts";
import { publishedSurface } from "./mcp/surface.ts" with { type: "macro" };
import { TOOLS } from "./mcp/tools/index.ts";
import { StdioTransport } from "./mcp/transport/stdio.ts";
import { becomeChildSubreaper } from "./process/subreaper.ts";
import { defaultHooks } from "./session/hooks.ts";

interface Start {
  config: Config;
  /** zero-config: completes the configuration (SPEC §2.1) */
  discover?: (shell: Config, signal: AbortSignal) => Promise<Config>;
}

async function loadConfig(argPath: string | undefined): Promise<Start> {
  const path = resolveConfigPath(argPath, process.env);
  if (path !== undefined) return { config: loadConfigFile(path) };
  // zero-config never fails to start: the shell now, the servers after the handshake
  const { zeroConfigShell, discoverZeroConfig } = await import("./discovery/zero-config.ts");
  return {
    config: zeroConfigShell(process.cwd()),
    discover: (shell, signal) => discoverZeroConfig(shell, signal),
  };
}

export async function serve(argPath: string | undefined): Promise<void> {
  let config: Config;
  let discover: Start["discover"];
  try {
    ({ config, discover } = await loadConfig(argPath));
  } catch (err) {
    process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
    process.exit(2);
  }
  log.setLevel(parseLogLevel(process.env.THEODOLITE_LOG_LEVEL) ?? config.bridge.log.level);
  if (config.bridge.log.file !== null) attachLogFile(config.bridge.log);
  const refused = config.discovery?.refused;
  if (refused) {
    const root = config.workspaces[0]?.root ?? ".";
    log.warn(`zero-config: not serving ${root}: ${refused.reason}; ${refused.hint}`);
  }

  // vscode-jsonrpc's deferred steps as microtasks, for every server connection (runtime.ts)
  installMicrotaskRuntime();
  // Orphans of a supervisor killed from outside come to us, not to PID 1 (SPEC §9.2).
  if (!becomeChildSubreaper())
    log.warn("could not become a child subreaper; see docs/SPEC.md §9.2 limits");
  // a full collection after answers that took in much, and when idle (collector.ts)
  const collector = new Collector();
  const bridge = new BridgeContext(
    config,
    defaultHooks((bytes) => collector.took(bytes)),
    discover,
  );
  const transport = new StdioTransport({
    input: Bun.stdin.stream().getReader(),
    output: Bun.stdout.writer(),
  });
  const connection = createMcpConnection(bridge, TOOLS, transport, publishedSurface());

  let closing = false;
  const shutdown = async (why: string, answerInFlight: boolean): Promise<void> => {
    if (closing) return;
    closing = true;
    log.info(`shutting down: ${why}`);
    const grace = bridge.config.bridge.shutdown_grace_ms;
    // SPEC §9.2: calls already received may finish within the grace; then every
    // session stops (a pending start is abandoned) and what is left is answered
    // with an error before the exit
    if (answerInFlight) await bounded(transport.drained(), grace);
    await bridge.shutdown();
    if (answerInFlight) await bounded(transport.drained(), grace);
    await connection.close().catch(() => {});
    process.exit(0);
  };
  // stdin EOF: requests already received are still answered; a stdout the client
  // closed (EPIPE) leaves nobody to answer
  transport.oninputend = () => void shutdown("stdin closed", true);
  transport.onanswered = () => collector.afterAnswer();
  transport.ondropped = (bytes) => collector.dropped(bytes);
  collector.watchRequests(() => transport.hasUnanswered());
  connection.onclose = () => void shutdown("transport closed", false);
  await connection.start();
  log.info(
    `serving MCP on stdio (config ${config.source}, ${config.workspaces.length} workspace(s))`,
  );
}
