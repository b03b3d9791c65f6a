/**
 * Sessions keyed by (workspace, server) (SPEC §9.1): at most `max_sessions`
 * live at once; starting one more evicts the least recently used idle
 * session, else `SessionLimit`. Sessions start lazily and a dead one is never
 * restarted implicitly.
 */
import type { Config } from "../config/types.ts";
import { BridgeError } from "../errors.ts";
import { log } from "../log.ts";
import { readWorkspaceText } from "../workspace/confined.ts";
import type { SessionHooks } from "./hooks.ts";
import { Session, sessionKey, type WaitContext } from "./session.ts";

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private useCounter = 0;

  constructor(
    readonly config: Config,
    hooks: SessionHooks,
  ) {
    for (const ws of config.workspaces) {
      for (const name of ws.servers) {
        const server = config.servers.find((s) => s.name === name);
        if (!server) continue; // validation guarantees this cannot happen
        this.sessions.set(sessionKey(ws.name, name), new Session(ws, server, config.bridge, hooks));
      }
    }
  }

  /** Every configured pair, in configuration order. */
  all(): Session[] {
    return [...this.sessions.values()];
  }

  get(workspace: string, server: string): Session {
    const s = this.sessions.get(sessionKey(workspace, server));
    if (!s) {
      throw new BridgeError(
        "UnknownServer",
        `server "${server}" is not configured for workspace "${workspace}"`,
        {
          hint: "session_status lists the configured (workspace, server) pairs",
          details: { workspace, server },
        },
      );
    }
    return s;
  }

  /**
   * Run `fn` with a ready session, counting it busy meanwhile (busy sessions
   * are never evicted).
   */
  async use<T>(session: Session, ctx: WaitContext, fn: (s: Session) => Promise<T>): Promise<T> {
    session.beginUse(++this.useCounter);
    try {
      if (!session.isLive()) await this.makeRoom(session);
      await session.ensureReady(ctx);
      return await fn(session);
    } finally {
      session.endUse(++this.useCounter);
    }
  }

  /** Evict the least recently used idle live session if starting `incoming` would exceed the limit. */
  private async makeRoom(incoming: Session): Promise<void> {
    if (incoming.state === "dead") return; // ensureReady will report SessionDead
    // a session some call is about to start (busy, not live yet) holds its place too,
    // so two concurrent first calls cannot both start past the limit
    const live = this.all().filter((s) => s !== incoming && (s.isLive() || s.inflight > 0));
    if (live.length < this.config.bridge.max_sessions) return;
    const idle = live.filter((s) => s.isIdle()).sort((a, b) => a.lastUsed - b.lastUsed);
    const victim = idle[0];
    if (!victim) {
      throw new BridgeError(
        "SessionLimit",
        `all ${this.config.bridge.max_sessions} sessions are busy`,
        {
          hint: "retry when a running call finishes, or raise bridge.max_sessions (at most 4)",
          details: { max_sessions: this.config.bridge.max_sessions, busy: live.map((s) => s.key) },
        },
      );
    }
    log.info(`evicting idle session ${victim.key} to start ${incoming.key}`);
    await victim.stop("not_started");
  }

  /** session_restart: stop whatever is there (dead or alive), then start fresh. */
  async restart(session: Session, ctx: WaitContext): Promise<Session> {
    await session.reset();
    return this.use(session, ctx, async (s) => s);
  }

  /** After the applier wrote files: every session holding one open resyncs it (SPEC §7.4). */
  resyncWritten(written: string[]): void {
    for (const abs of written) {
      for (const session of this.all().filter((s) => s.holdsOpen(abs))) {
        try {
          const { text, sha256 } = readWorkspaceText(
            session.workspace.root,
            abs,
            this.config.bridge.max_file_bytes,
          );
          session.resyncWritten(abs, text, sha256);
        } catch {
          // the file is gone or unreadable now: the next call on it reports that
        }
      }
    }
  }

  async shutdownAll(): Promise<void> {
    await Promise.all(this.all().map((s) => s.stop("not_started").catch(() => {})));
  }
}
