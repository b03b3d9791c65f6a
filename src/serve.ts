/**
 * The MCP stdio server's run loop: configuration, logging, our stdio
 * transport (SPEC §4.8), and the shutdown path when the transport closes —
 * stdin EOF or a stdout the client closed (SPEC §9.2). No SIGTERM handler by
 * design: supervisors notice the bridge is gone and reap their trees.
 */
import { bounded } from "./bounded.ts";
import { BridgeContext, type BridgeStart, loadStart, SharedBridge } from "./bridge.ts";
import { Collector } from "./collector.ts";
import type { Config } from "./config/types.ts";
import type { RootsAnswer } from "./discovery/client-roots.ts";
import { toEnvelope } from "./errors.ts";
import { log, parseLogLevel } from "./log.ts";
import { attachLogFile } from "./log-file.ts";
import { installMicrotaskRuntime } from "./lsp/runtime.ts";
import type { McpConnection } from "./mcp/protocol.ts";
import { askRoots } from "./mcp/roots.ts";
import { createMcpConnection } from "./mcp/server.ts";
import { publishedSurface } from "./mcp/surface.ts" with { type: "macro" };
import { TOOLS } from "./mcp/tools/index.ts";
import { StdioTransport } from "./mcp/transport/stdio.ts";
import { KILL_BOUND_MS } from "./process/launch.ts";
import { becomeChildSubreaper } from "./process/subreaper.ts";
import { defaultHooks } from "./session/hooks.ts";

/** After the sessions stopped, how long the last answers (errors) may take to be written. */
const ANSWER_FLUSH_MS = 250;
/**
 * SPEC §9.2: the exit comes at most this long after `shutdown_grace_ms`, whatever a server
 * does (under 2 s): a stop's kill, the last answers, and a margin for the exit itself.
 */
const EXIT_BOUND_MS = KILL_BOUND_MS + ANSWER_FLUSH_MS + 150;

export async function serve(argPath: string | undefined): Promise<void> {
  let config: Config;
  let zeroConfig: BridgeStart["zeroConfig"];
  try {
    ({ config, zeroConfig } = await loadStart(argPath));
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
  // the client is asked its roots through the connection made below, once discovery starts
  let connection: McpConnection | undefined;
  const ask = (): Promise<RootsAnswer> =>
    connection ? askRoots(connection) : Promise.resolve({ none: "no connection" });
  const bridge = new BridgeContext(
    new SharedBridge(
      config,
      defaultHooks((bytes) => collector.took(bytes)),
      zeroConfig?.(ask),
    ),
  );
  const transport = new StdioTransport({
    input: Bun.stdin.stream().getReader(),
    output: Bun.stdout.writer(),
  });
  const mcp = createMcpConnection(bridge, TOOLS, transport, publishedSurface());
  mcp.onrootschanged = () => bridge.rootsChanged();
  connection = mcp;

  let closing = false;
  const shutdown = async (why: string, answerInFlight: boolean): Promise<void> => {
    if (closing) return;
    closing = true;
    log.info(`shutting down: ${why}`);
    const grace = bridge.config.bridge.shutdown_grace_ms;
    // SPEC §9.2, one deadline: calls already received may finish within half the grace;
    // every session's stop ladder ends by the grace (a pending start is abandoned), its
    // tree killed then; what is left is answered with an error; the exit follows, and
    // whatever hangs, it comes by EXIT_BOUND_MS past the grace (a namespace's tree dies
    // with us: its supervisor's parent-death signal)
    const deadline = Date.now() + grace;
    setTimeout(() => process.exit(0), grace + EXIT_BOUND_MS);
    if (answerInFlight) await bounded(transport.drained(), grace / 2);
    await bridge.shared.shutdown(deadline);
    const left = Math.max(ANSWER_FLUSH_MS, deadline - Date.now());
    if (answerInFlight) await bounded(transport.drained(), left);
    await mcp.close().catch(() => {});
    process.exit(0);
  };
  // stdin EOF: requests already received are still answered; a stdout the client
  // closed (EPIPE) leaves nobody to answer
  transport.oninputend = () => void shutdown("stdin closed", true);
  transport.onanswered = () => collector.afterAnswer();
  transport.ontook = (bytes) => collector.took(bytes);
  transport.ondropped = (bytes) => collector.dropped(bytes);
  collector.watchRequests(() => transport.hasUnanswered());
  mcp.onclose = () => void shutdown("transport closed", false);
  await mcp.start();
  log.info(
    `serving MCP on stdio (config ${config.source}, ${config.workspaces.length} workspace(s))`,
  );
}
