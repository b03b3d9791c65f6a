/**
 * Sessions keyed by (workspace, server) (SPEC §9.1): at most `max_sessions` server trees
 * (starting, live, stopping), admitted one at a time (admission.ts), an eviction's tree
 * reaped before its slot is handed on. Owns one Workspace per configured root.
 */
import { byStanding, standings, type Tier } from "../config/standing.ts";
import type { Config } from "../config/types.ts";
import { log } from "../log.ts";
import type { InotifyHub } from "../workspace/watch-hub.ts";
import { Workspace } from "../workspace/workspace.ts";
import { type AdmissionMode, decideAdmission, type SlotView } from "./admission.ts";
import { catchUp } from "./catch-up.ts";
import type { SessionHooks } from "./hooks.ts";
import { Session, sessionKey, type WaitContext } from "./session.ts";
import { sessionLimitError, unknownServerError } from "./session-errors.ts";

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private readonly workspaces = new Map<string, Workspace>();
  private useCounter = 0;
  /** admitted, not started yet: they hold their slot */
  private readonly reserved = new Set<Session>();
  /** each session's tier and rank among all (SPEC §9.1), fixed by the configuration */
  private readonly standing = new Map<Session, { tier: Tier; rank: number }>();
  /** sessions `warmUp` is starting: their admission evicts only sessions ranked after them */
  private readonly warming = new Set<Session>();
  /** the admission in progress; the next one waits for it */
  private admissions: Promise<unknown> = Promise.resolve();

  constructor(
    readonly config: Config,
    hooks: SessionHooks,
    /** the bridge's one inotify instance, every workspace's watches in it */
    hub: InotifyHub,
  ) {
    const { max_file_bytes: maxFileBytes, max_watches: maxWatches } = config.bridge;
    const ranked: { session: Session; tier: Tier; position: number; ws: number }[] = [];
    for (const [wsIndex, wsConfig] of config.workspaces.entries()) {
      const servers = config.servers.filter((s) => wsConfig.servers.includes(s.name));
      const extensionsOf = (list: typeof servers) =>
        new Set(list.flatMap((s) => Object.keys(s.extensions)));
      const limits = {
        maxFileBytes,
        maxWatches,
        sourceExtensions: extensionsOf(servers),
        programExtensions: extensionsOf(servers.filter((s) => !s.data_files)),
      };
      const ws = new Workspace(wsConfig, limits, hub, hooks.took);
      this.workspaces.set(ws.name, ws);
      for (const { server, tier, position } of standings(config, wsConfig)) {
        const admit = (s: Session) => this.admit(s);
        const session = new Session(ws, server, config.bridge, hooks, admit);
        this.sessions.set(sessionKey(ws.name, server.name), session);
        ranked.push({ session, tier, position, ws: wsIndex });
      }
    }
    ranked.sort((a, b) => byStanding(a, b) || a.ws - b.ws);
    for (const [rank, { session, tier }] of ranked.entries()) {
      this.standing.set(session, { tier, rank });
    }
  }

  /** `sessions` by standing: main servers first, data-file servers last (SPEC §9.1). */
  byStanding(sessions: readonly Session[]): Session[] {
    return [...sessions].sort((a, b) => this.standingOf(a).rank - this.standingOf(b).rank);
  }

  private standingOf(s: Session): { tier: Tier; rank: number } {
    return this.standing.get(s) ?? { tier: "source", rank: Number.MAX_SAFE_INTEGER };
  }

  /**
   * `session_status {start: true}`: start `session` unless it is live, evicting only idle
   * sessions ranked after it (SPEC §9.1, §10); SessionLimit when none is.
   */
  async warmUp(session: Session, ctx: WaitContext): Promise<void> {
    this.warming.add(session);
    try {
      await this.use(session, ctx, async () => undefined);
    } finally {
      this.warming.delete(session);
    }
  }

  /** The Workspace object of a configured workspace (the router checked the name). */
  workspace(name: string): Workspace {
    const ws = this.workspaces.get(name);
    if (ws === undefined) throw new Error(`unreachable: no workspace "${name}"`);
    return ws;
  }

  /** Every configured pair, in configuration order. */
  all(): Session[] {
    return [...this.sessions.values()];
  }

  get(workspace: string, server: string): Session {
    const s = this.sessions.get(sessionKey(workspace, server));
    if (!s) throw unknownServerError(workspace, server);
    return s;
  }

  /** Run `fn` with a ready session, busy (never evicted) meanwhile; beside other calls. */
  use<T>(session: Session, ctx: WaitContext, fn: (s: Session) => Promise<T>): Promise<T> {
    return session.calls.shared(() => this.ready(session, ctx, fn));
  }

  /** `use`, the session's only call meanwhile (a preview, SPEC §6.2). */
  alone<T>(session: Session, ctx: WaitContext, fn: (s: Session) => Promise<T>): Promise<T> {
    return session.calls.exclusive(() => this.ready(session, ctx, fn));
  }

  private async ready<T>(
    session: Session,
    ctx: WaitContext,
    fn: (s: Session) => Promise<T>,
  ): Promise<T> {
    session.life.beginUse(++this.useCounter);
    try {
      await session.ensureReady(ctx);
      // everything changed on disk before this call reaches the server first (SPEC §5)
      await catchUp(session, ctx);
      // a file it does not reload, or that nothing vouches for, changed: a fresh server
      // answers instead (SPEC §5.3)
      const why = session.disk.takeReason("restart");
      if (why !== undefined) {
        log.info(`[${session.key}] restarting: ${why}`);
        await session.restartFor(why);
        ctx.restarted?.push(`${session.server.name}: ${why}`);
        await session.ensureReady(ctx);
        await catchUp(session, ctx);
      }
      return await fn(session);
    } finally {
      session.life.endUse(++this.useCounter);
    }
  }

  /** Sessions holding a slot: admitted, or with a tree (starting … stopping). */
  occupying(): Session[] {
    return this.all().filter((s) => this.occupies(s));
  }

  private occupies(s: Session): boolean {
    return s.life.isLive() || this.reserved.has(s);
  }

  /**
   * A slot for `incoming`'s next server life, decided after every earlier admission
   * finished. Resolves with the release the session calls once its start is over.
   */
  private admit(incoming: Session): Promise<() => void> {
    const turn = this.admissions.then(() => this.admitNow(incoming));
    this.admissions = turn.catch(() => {});
    return turn;
  }

  private async admitNow(incoming: Session): Promise<() => void> {
    const max = this.config.bridge.max_sessions;
    const mode: AdmissionMode = this.warming.has(incoming) ? "warmup" : "call";
    const tried = new Set<Session>();
    for (;;) {
      const views = this.all().map(
        (s): SlotView<Session> => ({
          session: s,
          occupies: this.occupies(s),
          reserved: this.reserved.has(s),
          idle: s.life.isIdle(),
          stopping: s.life.state === "stopping",
          lastUsed: s.life.lastUsed,
          ...this.standingOf(s),
        }),
      );
      const decision = decideAdmission(incoming, views, max, tried, mode);
      if (decision.kind === "admit") {
        this.reserved.add(incoming);
        return () => this.reserved.delete(incoming);
      }
      if (decision.kind === "limit") {
        throw sessionLimitError(max, {
          busy: decision.busy.map((s) => s.key),
          held: decision.held.map((s) => s.key),
          mode,
          tier: this.standingOf(incoming).tier,
        });
      }
      // the victim's tree is reaped before anyone else is admitted; then decide again
      tried.add(decision.victim);
      log.info(`evicting idle session ${decision.victim.key} to start ${incoming.key}`);
      await decision.victim.process.stop("not_started").catch((err: unknown) => {
        log.warn(`evicting ${decision.victim.key} failed: ${String(err)}`);
      });
    }
  }

  /** session_restart: stop whatever is there (dead or alive), then start fresh. */
  async restart(session: Session, ctx: WaitContext): Promise<Session> {
    await session.reset();
    return this.use(session, ctx, async (s) => s);
  }

  /** After the applier wrote files: every session holding one open resyncs it (SPEC §7.4). */
  async resyncWritten(written: string[]): Promise<void> {
    for (const abs of written) {
      for (const session of this.all().filter((s) => s.holdsOpen(abs))) {
        // didChange and didSave (SPEC §7.4); the workspace generation moves (§5.3); a file
        // gone or unreadable now is reported by the next call on it; never into a preview
        await session.calls.shared(async () => {
          const content = session.workspace.tryRead(abs);
          if (content !== undefined) session.documents.write(content);
        });
        // a file at a time: the bridge reads its input between two (SPEC §8.2)
        await session.workspace.turns.next();
      }
    }
  }

  /** Every session stopped by `deadline` (Date.now()), its tree killed then (SPEC §9.2). */
  async shutdownAll(deadline?: number): Promise<void> {
    await Promise.all(this.all().map((s) => s.shutdown(deadline).catch(() => {})));
    for (const ws of this.workspaces.values()) ws.close();
  }
}
