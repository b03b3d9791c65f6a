/**
 * The files of a server's languages changed on disk in its current life (SPEC §7.3), each
 * with the drain that last saw it change (a handle tells what changed after its listing);
 * past `max` files the record says it is no longer whole.
 */
import type { FileChange } from "../workspace/file-events.ts";

/** Changed files remembered per server life. */
export const MAX_CHANGED_FILES = 4096;

export class ChangedFiles {
  private readonly files = new Map<string, number>();
  private drains = 0;
  private overflowed = false;

  constructor(private readonly max = MAX_CHANGED_FILES) {}

  /** One drain's changes (already narrowed to the server's languages). */
  note(changes: readonly FileChange[]): void {
    if (changes.length === 0) return;
    this.drains += 1;
    for (const c of changes) {
      this.files.delete(c.abs);
      if (this.files.size >= this.max) this.overflowed = true;
      else this.files.set(c.abs, this.drains);
    }
  }

  /** The current mark: files noted later are `since(mark)`. */
  get mark(): number {
    return this.drains;
  }

  /** Whether every change of this life is in the record. */
  get whole(): boolean {
    return !this.overflowed;
  }

  /** The files changed after `mark` (every one of this life with 0), in no particular order. */
  since(mark: number): string[] {
    const out: string[] = [];
    for (const [abs, at] of this.files) if (at > mark) out.push(abs);
    return out;
  }

  /** A new server life: it loads everything afresh. */
  reset(): void {
    this.files.clear();
    this.drains = 0;
    this.overflowed = false;
  }
}
