/**
 * Turns of the event loop handed out one at a time (SPEC §8.2): work on a large file — its
 * line table, its text's size as JSON — is a few hundred ms in one piece, and calls that
 * arrive together would run theirs back to back in one turn, the client's pings unread
 * until all were done. A caller that awaits `next()` gets a turn to itself, after the
 * callers before it had theirs: the turns are chained, so the bridge reads its input
 * between them (immediates queued together run with none read between).
 */
export class Turns {
  private last: Promise<void> = Promise.resolve();

  /** Resolves at the start of a turn of the event loop that no other caller shares. */
  next(): Promise<void> {
    const mine = this.last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.last = mine;
    return mine;
  }
}
