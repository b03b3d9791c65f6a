/**
 * What waits to be written to a peer that may stop reading (SPEC §8.2): a server's stdin
 * (lsp/message-writer.ts) and the client's stdout (mcp/transport/stdio.ts) keep one each.
 * Writes go one at a time, in order; each weighs its bytes from the moment it is queued
 * until it has left the process (the sink took all of it). Past the bound, the peer must
 * keep taking bytes: once more than the bound waits and nothing was taken for the stall
 * time, the backlog calls `onstall` once — the peer does not read, and its owner ends the
 * connection. What may still be queued past the bound is the owner's rule (the server's
 * writer refuses made bytes; the transport stops reading the client until there is room).
 */

/** `s` in pieces of at most `chars` UTF-16 units, a surrogate pair never split. */
export function* textPieces(s: string, chars: number): Generator<string> {
  for (let at = 0; at < s.length; ) {
    let end = Math.min(s.length, at + chars);
    const last = s.charCodeAt(end - 1);
    if (end < s.length && end - at > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield end - at === s.length ? s : s.slice(at, end);
    at = end;
  }
}

export class WriteBacklog {
  /** bytes queued and not written yet */
  private waiting = 0;
  /** the last write queued: the next one waits for it */
  private queue: Promise<void> = Promise.resolve();
  /** a write is running; when its sink last took bytes (or it began) */
  private writing = false;
  private tookAt = 0;
  private watch: ReturnType<typeof setTimeout> | undefined;
  private ended = false;
  private roomWaiters: (() => void)[] = [];

  constructor(
    readonly bound: number,
    readonly stallMs: number,
    private readonly onstall: () => void,
  ) {}

  /** Bytes queued and not written yet. */
  get pending(): number {
    return this.waiting;
  }

  /** More than the bound waits. */
  over(): boolean {
    return this.waiting > this.bound;
  }

  /** The write running has had nothing taken for the stall time. */
  stalled(): boolean {
    return this.writing && Date.now() - this.tookAt >= this.stallMs;
  }

  /** `write` runs after every write queued before it; its `bytes` count until it settles. */
  enqueue(bytes: number, write: () => Promise<void>): Promise<void> {
    this.waiting += bytes;
    if (this.over()) this.watchStall();
    const done = this.queue
      .then(() => this.run(write))
      .finally(() => {
        this.waiting -= bytes;
        if (!this.over()) this.roomMade();
      });
    this.queue = done.catch(() => {});
    return done;
  }

  /** Resolves once every write queued so far has settled. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** The sink took bytes of the write running (a piece of it). */
  took(): void {
    this.tookAt = Date.now();
  }

  /** Resolves once no more than the bound waits, or the backlog ended. */
  room(): Promise<void> {
    if (!this.over() || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** No more watching: the connection ends (whoever waits for room goes on). */
  end(): void {
    this.ended = true;
    this.roomMade();
  }

  private async run(write: () => Promise<void>): Promise<void> {
    this.writing = true;
    this.tookAt = Date.now();
    try {
      await write();
    } finally {
      this.writing = false;
    }
  }

  private roomMade(): void {
    if (this.watch !== undefined) clearTimeout(this.watch);
    this.watch = undefined;
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  /** While more than the bound waits, the peer must keep taking bytes. */
  private watchStall(): void {
    if (this.watch !== undefined || this.ended) return;
    const check = () => {
      this.watch = undefined;
      if (this.ended || !this.over()) return;
      if (this.stalled()) {
        this.ended = true;
        this.onstall();
        this.roomMade();
      } else this.watch = setTimeout(check, Math.max(1, this.tookAt + this.stallMs - Date.now()));
    };
    this.watch = setTimeout(check, this.stallMs);
  }
}
