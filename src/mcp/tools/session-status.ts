/**
 * session_status (SPEC §10): bridge facts, every configured (workspace,
 * server) pair with its state, and the gate transcript. The one place where
 * pids, timings and counters appear (results elsewhere carry none, SPEC §1).
 */
import { z } from "zod";
import type { BridgeContext } from "../../bridge.ts";
import { type ErrorEnvelope, toEnvelope } from "../../errors.ts";
import { resolveWorkspace } from "../../router.ts";
import { unknownStatusServer } from "../../router-errors.ts";
import { boundedWatchers } from "../../session/registrations.ts";
import type { Session } from "../../session/session.ts";
import { COMMIT, VERSION } from "../../version.ts";
import { relativizeEnvelope } from "../../workspace/relative-text.ts";
import { workspaceFileStatus } from "../../workspace/requirements.ts";
import { serverArg, workspaceArg } from "../conventions.ts";
import { boundedEnvelope } from "../envelope.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { waitContext } from "./common.ts";

const input = z
  .object({
    workspace: workspaceArg,
    server: serverArg,
    start: z.boolean().optional().describe("Start the selected sessions and wait for each."),
  })
  .strict();

const output = z.object({
  bridge: z.object({}).passthrough(),
  // entries as SPEC §10 lists them; their fields are self-describing
  sessions: z.array(z.object({})),
  gate_decisions: z.array(z.object({}).passthrough()),
});

export function sessionEntry(s: Session): Record<string, unknown> {
  const now = Date.now();
  const { life, process: proc } = s;
  const { readiness } = s.driver;
  const conditions = readiness.conditions(s.progress);
  const entry: Record<string, unknown> = {
    workspace: s.workspace.name,
    server: s.server.name,
    state: life.state,
    epoch: life.epoch,
    version_pinned: s.server.version,
    version_observed: proc.observedVersion ?? null,
    pids: { supervisor: proc.supervisorPid ?? null, server: proc.serverPid ?? null },
    // the session's own PID namespace, or the subreaper alone and why (SPEC §9.2)
    containment: proc.containment ?? null,
    uptime_ms: life.startedAt !== undefined && life.isLive() ? now - life.startedAt : null,
    readiness: {
      conditions: conditions.map((c) => c.condition),
      met: conditions.filter((c) => c.met).map((c) => c.condition),
      pending: life.state === "waiting_ready" ? readiness.pendingStartup(s.progress) : [],
      ready_ms:
        life.readyAt !== undefined && life.startedAt !== undefined
          ? life.readyAt - life.startedAt
          : null,
      server_status: readiness.status ?? null,
      warmup: s.driver.warmupOutcome ?? null,
    },
    position_encoding: life.isLive() ? proc.encoding : null,
    open_documents: s.documents.count(),
    // how the server's view follows the disk, and what is not watched (SPEC §5)
    coherence: boundedWatchers(s.documents.status()),
    diagnostics: s.diagnostics.count(),
    // server-fed lists are bounded, with counts (SPEC §8): never ResultTooLarge
    ...s.progress.status(),
    diagnostics_dropped: s.diagnostics.dropped(),
    inflight: life.inflight,
    // a `diagnostics {contents}` preview holding the session alone (SPEC §6.2)
    ...s.calls.status(),
    // restarts because a file it does not reload changed (SPEC §5.3 `restart_on`)
    restarts: { count: s.restarts.count, last_reason: s.restarts.last ?? null },
    last_exit: life.lastExit
      ? {
          code: life.lastExit.code,
          signal: life.lastExit.signal,
          stderr_tail: life.lastExit.stderr_tail,
        }
      : null,
    last_error: life.lastError
      ? boundedEnvelope(relativizeEnvelope(life.lastError, s.workspace.root))
      : null,
    // prerequisites as they are now (SPEC §3.4): a missing one is why calls fail
    workspace_files: workspaceFileStatus(s.workspace.config, s.server).map((f) =>
      f.error ? { ...f, error: relativizeEnvelope(f.error, s.workspace.root) } : f,
    ),
  };
  return entry;
}

/** `client`: the caller's identity from the handshake (CallContext.client). */
export function bridgeFacts(bridge: BridgeContext, client: string | null): Record<string, unknown> {
  const b = bridge.config.bridge;
  return {
    version: VERSION,
    commit: COMMIT,
    bun: Bun.version,
    pid: process.pid,
    uptime_ms: Date.now() - bridge.startedAt,
    config: bridge.config.source,
    column_unit: b.column_unit,
    mutation: b.mutation,
    client,
    apply_class_registered: bridge.applyClassFor(client),
    max_sessions: b.max_sessions,
    live_sessions: bridge.sessions.occupying().length,
    // applies a killed bridge left half done, finished or undone at start (SPEC §7.4)
    recovered_applies: bridge.journal.recovered.map((r) => ({
      ...r,
      restored: r.restored.slice(0, 50),
      left: r.left.slice(0, 50),
    })),
    ...(bridge.config.discovery ? { discovery: bridge.config.discovery } : {}),
  };
}

export const sessionStatusTool = defineTool({
  name: "session_status",
  title: "Session status",
  description:
    "Bridge facts and each (workspace, server) session: state, versions, readiness, last exit; the gate transcript.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const { bridge } = ctx;
    const { config } = bridge;
    // a server filter names a server of the workspace filtered on (SPEC §4.5), else any
    const ws = args.workspace === undefined ? undefined : resolveWorkspace(config, args.workspace);
    const known = ws ? ws.servers : config.servers.map((s) => s.name);
    if (args.server !== undefined && !known.includes(args.server)) {
      throw unknownStatusServer(args.server, known, ws?.name);
    }
    const selected = bridge.sessions
      .all()
      .filter(
        (s) =>
          (args.workspace === undefined || s.workspace.name === args.workspace) &&
          (args.server === undefined || s.server.name === args.server),
      );
    const startErrors = new Map<string, ErrorEnvelope>();
    if (args.start) {
      const wait = waitContext(ctx);
      // one after another, main servers first: a start evicts only sessions ranked after
      // it, so more than max_sessions leaves the main ones ready; a server named is
      // started as a call would start it (SPEC §9.1, §10)
      const named = args.server !== undefined;
      for (const s of bridge.sessions.byStanding(selected)) {
        await (named
          ? bridge.sessions.use(s, wait, async () => undefined)
          : bridge.sessions.warmUp(s, wait)
        ).catch((err: unknown) => startErrors.set(s.key, toEnvelope(err)));
      }
    }
    const sessions = selected.map((s) => {
      const entry = sessionEntry(s);
      const err = startErrors.get(s.key);
      if (err) entry.start_error = boundedEnvelope(relativizeEnvelope(err, s.workspace.root));
      return entry;
    });
    return {
      result: {
        bridge: bridgeFacts(bridge, ctx.client),
        sessions,
        gate_decisions: bridge.transcript.list(),
      },
      count: sessions.length,
    };
  },
});
