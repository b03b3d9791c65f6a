/**
 * The shared bridge (SPEC §2.2): `theodolite --daemon SOCKET [--config FILE]`, started
 * detached by the first client. It holds its lock for its whole life — the one its
 * starter handed over (a second daemon for the same socket answers `busy` and exits) —
 * removes the files of bridges that no longer run (sweep.ts), replaces a socket file a
 * dead one left, listens on the Unix socket — no TCP anywhere — and serves each connection
 * whose peer is this user as a client of its own over sessions they all share. It
 * contains its servers as a dedicated bridge does (child subreaper, supervisors with
 * a parent-death signal, SPEC §9.2) and exits with its whole tree once no client has
 * been connected for `shared_idle_seconds`, or when `daemon stop` asks.
 */

import { chmodSync, closeSync, openSync, rmSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Socket, UnixSocketListener } from "bun";
import { loadStart, SharedBridge } from "../bridge.ts";
import { Collector } from "../collector.ts";
import { toEnvelope } from "../errors.ts";
import { peerOf } from "../ffi/peer.ts";
import { closeOnExec, duplicateFd } from "../ffi/process.ts";
import { log, parseLogLevel } from "../log.ts";
import { attachLogFile } from "../log-file.ts";
import { installMicrotaskRuntime } from "../lsp/runtime.ts";
import { publishedSurface } from "../mcp/surface.ts" with { type: "macro" };
import { TOOLS } from "../mcp/tools/index.ts";
import { KILL_BOUND_MS } from "../process/launch.ts";
import { becomeChildSubreaper } from "../process/subreaper.ts";
import { defaultHooks } from "../session/hooks.ts";
import { ClientConnection } from "./connection.ts";
import { type ControlAnswer, serveControl, statusOf } from "./control.ts";
import { daemonFiles, HANDED_LOCK_FD, handedLock, holdLock, writeLockInfo } from "./files.ts";
import { identityOf, type SharedIdentity, socketName } from "./identity.ts";
import { Refusals } from "./refusals.ts";
import { configChangedAtStart, daemonUsage } from "./start-errors.ts";
import { sweepStale } from "./sweep.ts";

/** SPEC §8.2: clients one shared bridge serves at once; one more is closed at once. */
export const MAX_CLIENTS = 32;

/** What the daemon tells the client that started it, one JSON line on its stdout. */
export type Announcement = { ready: number } | { busy: true } | { error: unknown };

function announce(what: Announcement): void {
  try {
    writeSync(1, `${JSON.stringify(what)}\n`);
  } catch {
    // the starter is gone: another client will find the socket
  }
  // nothing else goes to the starter: it may stop reading
  const devNull = openSync("/dev/null", "w");
  duplicateFd(devNull, 1);
  closeSync(devNull);
}

export function parseDaemonArgs(args: readonly string[]): { socket: string; config?: string } {
  const [socket, flag, config] = args;
  if (socket === undefined || (flag !== undefined && (flag !== "--config" || config === undefined)))
    throw daemonUsage();
  return config === undefined ? { socket } : { socket, config };
}

/** The lock this daemon holds: the one its starter handed over, or taken now; null when another holds it. */
function takeLock(path: string): number | null {
  const lock = handedLock(HANDED_LOCK_FD, path) ?? holdLock(path);
  // what the daemon starts must not hold its lock past its death
  if (lock !== null) closeOnExec([lock]);
  return lock;
}

export async function runDaemon(args: readonly string[]): Promise<void> {
  let opts: ReturnType<typeof parseDaemonArgs>;
  try {
    opts = parseDaemonArgs(args);
  } catch (err) {
    announce({ error: toEnvelope(err) });
    process.exit(2);
  }
  const files = daemonFiles(opts.socket);
  // held until the process ends: the kernel lets it go on any death
  const lock = takeLock(files.lock);
  if (lock === null) {
    announce({ busy: true });
    process.exit(0);
  }
  let start: Awaited<ReturnType<typeof loadStart>>;
  let identity: SharedIdentity;
  try {
    start = await loadStart(opts.config);
    identity = identityOf(start.config, process.env);
    const expected = socketName(identity);
    if (basename(opts.socket) !== expected) {
      throw configChangedAtStart();
    }
  } catch (err) {
    announce({ error: toEnvelope(err) });
    process.exit(2);
  }
  writeLockInfo(lock, { pid: process.pid, roots: [...identity.roots] });
  sweepStale(dirname(opts.socket), basename(opts.socket, ".sock"));
  const { config, zeroConfig } = start;
  log.setLevel(parseLogLevel(process.env.THEODOLITE_LOG_LEVEL) ?? config.bridge.log.level);
  if (config.bridge.log.file !== null) attachLogFile(config.bridge.log);
  installMicrotaskRuntime();
  if (!becomeChildSubreaper())
    log.warn("could not become a child subreaper; see docs/SPEC.md §9.2 limits");
  const collector = new Collector();
  // a shared bridge has no one client to ask its roots: a refused directory is served isolated
  const noRoots = () => Promise.resolve({ none: "a shared bridge asks no client its roots" });
  const shared = new SharedBridge(
    config,
    defaultHooks((bytes) => collector.took(bytes)),
    zeroConfig?.(noRoots),
  );
  const daemon = new Daemon(shared, collector, files.socket, identity);
  try {
    for (const path of [files.socket, files.control]) rmSync(path, { force: true });
    daemon.listen(files.socket, files.control);
    // the directory is the first fence; the sockets themselves are the user's alone too.
    // The control socket's mode is set last: a waiting client's sign that both listen
    for (const path of [files.socket, files.control]) chmodSync(path, 0o600);
  } catch (err) {
    // a path too long for a socket, say: the starter hears why
    announce({ error: toEnvelope(err) });
    process.exit(1);
  }
  announce({ ready: process.pid });
  log.info(`shared bridge ${process.pid} serving ${files.socket} (config ${config.source})`);
}

class Daemon {
  private readonly clients = new Set<ClientConnection>();
  private readonly refusals = new Refusals(MAX_CLIENTS);
  private listener: UnixSocketListener<ClientConnection | undefined> | undefined;
  private control: UnixSocketListener<{ text: string }> | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private closing = false;

  constructor(
    private readonly shared: SharedBridge,
    private readonly collector: Collector,
    private readonly socket: string,
    private readonly identity: SharedIdentity,
  ) {
    collector.watchRequests(() => [...this.clients].some((c) => c.transport.hasUnanswered()));
  }

  listen(socket: string, control: string): void {
    const uid = process.geteuid?.() ?? -1;
    const published = publishedSurface();
    this.listener = Bun.listen<ClientConnection | undefined>({
      unix: socket,
      data: undefined,
      // a client's end of input is not the end of its answers (connection.ts)
      allowHalfOpen: true,
      socket: {
        open: (s) => {
          const peer = peerOf(s);
          if (this.closing || peer === null || peer.uid !== uid) {
            const why = peer === null ? "no peer credentials" : `peer uid ${peer.uid}`;
            log.warn(`refused a connection: ${this.closing ? "closing" : why}`);
            s.terminate();
            return;
          }
          if (this.clients.size >= MAX_CLIENTS) {
            // this user's client hears why (the relay reads the line, SPEC §2.2)
            log.warn(`refused a connection: ${MAX_CLIENTS} clients already`);
            this.refusals.refuse(s as Socket<unknown>);
            return;
          }
          const conn = new ClientConnection(s as Socket<unknown>, peer.pid, {
            shared: this.shared,
            tools: TOOLS,
            published,
            collector: this.collector,
            onend: (c) => this.ended(c),
          });
          s.data = conn;
          this.clients.add(conn);
          this.armIdle();
          void conn.start();
        },
        data: (s, chunk) => s.data?.input.push(chunk),
        drain: (s) => s.data?.output.drain(),
        end: (s) => {
          if (this.refusals.has(s as Socket<unknown>)) this.refusals.release(s as Socket<unknown>);
          else s.data?.input.end();
        },
        close: (s) => {
          this.refusals.release(s as Socket<unknown>);
          s.data?.closed();
        },
        error: (_s, err) => log.debug(`client socket: ${String(err)}`),
      },
    });
    this.control = serveControl(control, uid, (command) => this.command(command));
    this.armIdle();
  }

  private ended(conn: ClientConnection): void {
    this.clients.delete(conn);
    this.armIdle();
  }

  /** No client: the idle period starts; a client: it stops. */
  private armIdle(): void {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    if (this.clients.size > 0 || this.closing) return;
    const seconds = this.shared.config.bridge.shared_idle_seconds;
    this.idle = setTimeout(() => void this.shutdown(`no client for ${seconds} s`), seconds * 1000);
  }

  private command(command: string): ControlAnswer {
    if (command === "ping") return { pong: process.pid };
    if (command === "stop") {
      setImmediate(() => void this.shutdown("daemon stop"));
      return { stopping: process.pid };
    }
    return statusOf(this.shared, this.identity, this.socket, [...this.clients]);
  }

  /** The bridge's exit, as serve's (SPEC §9.2): every session stopped by the grace, then exit. */
  private async shutdown(why: string): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    log.info(`shared bridge shutting down: ${why}`);
    const grace = this.shared.config.bridge.shutdown_grace_ms;
    const deadline = Date.now() + grace;
    setTimeout(() => process.exit(0), grace + KILL_BOUND_MS + 400);
    // new clients start a new bridge once this one lets go of its lock, at exit
    rmSync(this.socket, { force: true });
    rmSync(daemonFiles(this.socket).control, { force: true });
    this.listener?.stop(true);
    this.control?.stop(true);
    await Promise.all([...this.clients].map((c) => c.finish(false)));
    await this.shared.shutdown(deadline);
    process.exit(0);
  }
}
