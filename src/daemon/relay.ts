/**
 * The stdio side of a shared bridge (SPEC §2.2): `theodolite` passes the client's
 * bytes to the bridge's socket and the bridge's back, adding nothing — every answer
 * is the bridge's, byte for byte. It keeps what relay-book.ts keeps, so that when
 * the bridge dies, refuses the client (its client limit) or stops answering
 * (liveness.ts), every call in flight is answered typed at once. The next message
 * goes to a new bridge (attached or started) that was first greeted with the client's
 * own handshake — except while the bridge it had stays unresponsive: then each message
 * is answered so at once, until that bridge answers the relay's probe or is gone. The
 * relay never ends a bridge. stdin's end is passed on (the bridge answers what it has,
 * then closes); a closed stdout ends the relay.
 */
import type { Socket } from "bun";
import { type BridgeError, toEnvelope } from "../errors.ts";
import { log } from "../log.ts";
import { attach, type SharedTarget } from "./attach.ts";
import { ping, QUIET_MARGIN_MS, Watchdog } from "./liveness.ts";
import { BridgeLines, ClientLines, type LineInfo, RelayBook } from "./relay-book.ts";
import {
  bridgeExited,
  bridgeUnavailable,
  bridgeUnresponsive,
  isSharedBridgeError,
  refusalOf,
} from "./shared-errors.ts";
import { SocketOutput } from "./socket-stream.ts";

/** Bytes of answers waiting for the client past which the bridge's socket is not read. */
const MAX_QUEUED_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Bytes sent to the bridge and not taken yet past which the client's input waits. */
const MAX_QUEUED_INPUT_BYTES = 1024 * 1024;

interface Link {
  socket: Socket<undefined>;
  output: SocketOutput;
  lines: BridgeLines;
  alive: boolean;
  /** a line of the bridge's came (its first may be a refusal) */
  heard: boolean;
  /** why it ended, when not by the bridge's exit */
  why?: BridgeError;
  watchdog?: Watchdog;
}

export interface RelayOptions {
  /** the bridge's `shutdown_grace_ms` */
  graceMs: number;
  /** the bridge's `request_timeout_ms` */
  requestTimeoutMs: number;
}

export class Relay {
  private readonly book = new RelayBook();
  private readonly stdout = Bun.stdout.writer();
  private link: Link | undefined;
  private toClient: Promise<void> = Promise.resolve();
  private queuedForClient = 0;
  private inputDone = false;
  /** why the last line found no bridge (its answer says so) */
  private unreachable: BridgeError | undefined;
  /** the bridge does not answer: every line is answered so until it does or is gone */
  private stalled: BridgeError | undefined;
  private exiting = false;

  constructor(
    private readonly target: SharedTarget,
    private readonly opts: RelayOptions,
  ) {}

  async run(): Promise<void> {
    const reader = Bun.stdin.stream().getReader();
    const lines = new ClientLines();
    // the link the current line began on (null: no bridge could be had); a dead one
    // means the line was cut off
    let lineLink: Link | null = null;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || value === undefined) break;
        for (const piece of lines.push(value)) {
          if (piece.first) lineLink = this.link?.alive ? this.link : await this.relink();
          const link = lineLink;
          if (link?.alive) {
            link.output.write(piece.bytes);
            link.watchdog?.touch();
          }
          if (piece.end !== undefined) this.ended(piece.end, link);
          if (link?.alive && link.output.pending > MAX_QUEUED_INPUT_BYTES)
            await Promise.resolve(link.output.flush()).catch(() => {});
        }
      }
    } catch (err) {
      this.fail(err);
    }
    this.inputDone = true;
    const link = this.link;
    if (link?.alive) {
      // the bridge answers what it was asked, then closes; bounded whatever it does
      link.socket.shutdown();
      setTimeout(() => void this.exit(), this.opts.graceMs * 2 + 2000).unref();
    } else {
      await this.exit();
    }
  }

  /** A line the client finished: now the bridge's to answer — or, cut off with a dead one, ours. */
  private ended(line: LineInfo, link: Link | null): void {
    if (link?.alive) {
      this.book.sent(line);
      return;
    }
    const why = link === null ? (this.unreachable ?? bridgeExited()) : (link.why ?? bridgeExited());
    for (const answer of this.book.cutOff(line, why)) this.send(Buffer.from(`${answer}\n`));
  }

  /**
   * A bridge for the next line: the first one the relay cannot have for a reason of
   * configuration ends it (exit 2, why on stderr); otherwise the line fails typed, and the
   * next line tries again — at once while the last bridge stays unresponsive.
   */
  private async relink(): Promise<Link | null> {
    if (this.stalled !== undefined) {
      this.unreachable = this.stalled;
      return null;
    }
    try {
      return await this.connect();
    } catch (err) {
      if (this.link === undefined && !isSharedBridgeError(err)) throw err;
      log.warn(`no shared bridge for this message: ${String(err)}`);
      this.unreachable = isSharedBridgeError(err) ? err : bridgeUnavailable(err);
      if (this.unreachable.details?.shared_bridge === "unresponsive") this.stall(this.unreachable);
      return null;
    }
  }

  private async connect(): Promise<Link> {
    const lines = new BridgeLines();
    // the socket may close before its link is made (a bridge that refuses the client)
    const holder: { link?: Link; closed?: boolean; refused?: BridgeError } = {};
    const socket = await attach<undefined>(this.target, {
      data: (s, chunk) => {
        for (const line of lines.push(new Uint8Array(chunk))) {
          const link = holder.link;
          if (link === undefined || !link.heard) {
            if (link !== undefined) link.heard = true;
            const refused = refusalOf(line);
            if (refused !== undefined) {
              // the bridge keeps a refused connection until its client has read why
              holder.refused = refused;
              if (link !== undefined) link.why = refused;
              s.end();
              continue;
            }
          }
          if (this.book.received(line)) this.send(Buffer.concat([line, Buffer.from("\n")]));
        }
        holder.link?.watchdog?.touch();
      },
      drain: () => holder.link?.output.drain(),
      close: () => {
        holder.closed = true;
        if (holder.link !== undefined) this.lost(holder.link);
      },
      error: (_s, err) => log.debug(`shared bridge socket: ${String(err)}`),
    });
    const link: Link = {
      socket,
      output: new SocketOutput(socket as Socket<unknown>),
      lines,
      alive: true,
      heard: holder.refused !== undefined,
      ...(holder.refused !== undefined ? { why: holder.refused } : {}),
    };
    link.watchdog = new Watchdog(
      this.target.files.control,
      this.opts.requestTimeoutMs + QUIET_MARGIN_MS,
      () => link.alive && (this.book.waiting > 0 || link.output.pending > 0),
      (silence) => {
        silence.drop();
        link.why = bridgeUnresponsive(silence.pid, this.target.files.socket);
        this.stall(link.why);
        link.socket.terminate();
        this.lost(link);
      },
    );
    holder.link = link;
    this.link = link;
    if (holder.closed === true) this.lost(link);
    else for (const line of this.book.replay()) link.output.write(`${line}\n`);
    link.watchdog.touch();
    return link;
  }

  /** The bridge closed (or was given up): what waited is answered typed; the next line starts another. */
  private lost(link: Link): void {
    if (!link.alive) return;
    link.alive = false;
    link.watchdog?.stop();
    link.output.close();
    link.lines.reset();
    const answers = this.book.lost(link.why ?? bridgeExited());
    if (answers.length > 0) {
      const how =
        link.why?.details?.shared_bridge === "unresponsive" ? "stopped answering" : "closed";
      log.warn(`the shared bridge ${how} with ${answers.length} call(s) in flight`);
    }
    for (const answer of answers) this.send(Buffer.from(`${answer}\n`));
    if (this.inputDone) void this.exit();
  }

  /**
   * The bridge does not answer: lines are answered `why` at once until a probe of its
   * control socket is answered or closes (the bridge went on, or is gone).
   */
  private stall(why: BridgeError): void {
    if (this.stalled !== undefined) return;
    this.stalled = why;
    log.warn(`${why.message}: answering every message so until it answers or is gone`);
    void (async () => {
      const probe = await ping(this.target.files.control);
      if ("silent" in probe) await probe.silent.over;
      this.stalled = undefined;
      log.info("the shared bridge answers again (or is gone): relaying again");
    })();
  }

  private send(bytes: Uint8Array): void {
    this.queuedForClient += bytes.length;
    const link = this.link;
    if (this.queuedForClient > MAX_QUEUED_OUTPUT_BYTES) link?.socket.pause();
    this.toClient = this.toClient.then(async () => {
      if (this.exiting) return;
      try {
        this.stdout.write(bytes);
        await this.stdout.flush();
      } catch (err) {
        log.info(`stdout closed: ${String(err)}`);
        this.exiting = true;
        this.link?.socket.terminate();
        process.exit(0);
      }
      this.queuedForClient -= bytes.length;
      if (this.queuedForClient <= MAX_QUEUED_OUTPUT_BYTES / 2) link?.socket.resume();
    });
  }

  private fail(err: unknown): void {
    // no bridge could be had: the client hears why on stderr, as a configuration error
    process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
    process.exit(2);
  }

  private async exit(): Promise<void> {
    await this.toClient;
    this.exiting = true;
    process.exit(0);
  }
}
