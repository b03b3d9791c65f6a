/**
 * The bridge's one inotify instance (SPEC §5.2), shared by every watcher of every workspace
 * — the roots and their outside dependencies (§5.3): the user's instances are few
 * (fs.inotify.max_user_instances), watches many. Each owner holds a `Watches`; a drain by
 * any of them reads the one queue and hands every event to each owner of its descriptor.
 *
 * The kernel gives one descriptor per inode and instance: two owners (or two paths) on one
 * directory share it, counted, and it is removed when the last lets go. IN_IGNORED ends it
 * for every owner; an overflow reaches every owner. The instance is opened with the first
 * owner — again after a failure, when a later one asks — and closed with the last.
 */
import {
  IN_IGNORED,
  IN_Q_OVERFLOW,
  Inotify,
  type InotifyEvent,
  kernelQueueLimit,
} from "../ffi/inotify.ts";

/** inotify(7): the mask is added to the watch's, not put in its place. */
const IN_MASK_ADD = 0x2000_0000;
/** What reaches an owner whatever it asked for. */
const ALWAYS = IN_IGNORED | IN_Q_OVERFLOW;
const EBADF = 9;

/** One owner's watches in the shared instance (what the watch index holds). */
export interface Watches {
  /** inotify_add_watch: the descriptor (maybe shared with other owners), or `{errno}` */
  addWatch(path: string, mask: number): number | { errno: number };
  /** lets go of one hold on `wd`; the kernel's watch ends with the last owner's */
  removeWatch(wd: number): void;
  /** the owner's events since its last drain (the queue read first), never blocks */
  drain(): InotifyEvent[];
  /** `drain` without reading the queue: right after `InotifyHub.read()` */
  take(): InotifyEvent[];
  /** lets go of every watch it holds */
  close(): void;
}

/** An owner's hold on one descriptor: how many times it added it, and with what. */
interface Hold {
  count: number;
  mask: number;
}

interface Owner {
  holds: Map<number, Hold>;
  pending: InotifyEvent[];
  /** events were dropped since its last drain: it rescans, only ended watches matter */
  overflowed: boolean;
}

const overflowRecord = (): InotifyEvent => ({ wd: -1, mask: IN_Q_OVERFLOW, cookie: 0, name: "" });

export class InotifyHub {
  private inotify: Inotify | null = null;
  private readonly owners = new Set<Owner>();
  /** descriptor → its owners */
  private readonly byWd = new Map<number, Set<Owner>>();
  /** descriptors removed whose IN_IGNORED is not read yet: their events are no one's */
  private readonly retiring = new Set<number>();

  constructor(
    /** a new instance, or why there is none (tests pass a bounded queue) */
    private readonly open: () => Inotify | { error: string } = () => Inotify.open(),
    /** events one owner keeps between its drains, past which it is told of an overflow */
    private readonly ownerLimit = kernelQueueLimit(),
  ) {}

  /** A new owner's watches, or why there is no instance (tried again on the next call). */
  watches(): Watches | { error: string } {
    if (this.inotify === null) {
      const opened = this.open();
      if (!(opened instanceof Inotify)) return opened;
      this.inotify = opened;
    }
    const inotify = this.inotify;
    const owner: Owner = { holds: new Map(), pending: [], overflowed: false };
    this.owners.add(owner);
    return {
      addWatch: (path, mask) => this.add(inotify, owner, path, mask),
      removeWatch: (wd) => this.release(owner, wd, 1),
      drain: () => {
        this.read();
        return this.take(owner);
      },
      take: () => this.take(owner),
      close: () => this.leave(owner),
    };
  }

  /** Instances open: 0 or 1. */
  instances(): number {
    return this.inotify === null ? 0 : 1;
  }

  private add(inotify: Inotify, owner: Owner, path: string, mask: number) {
    if (!this.owners.has(owner)) return { errno: EBADF }; // the owner let go
    // another owner's mask on the same inode is kept: the union, filtered per owner
    const wd = inotify.addWatch(path, mask | IN_MASK_ADD);
    if (typeof wd !== "number") return wd;
    const hold = owner.holds.get(wd);
    if (hold === undefined) owner.holds.set(wd, { count: 1, mask });
    else {
      hold.count += 1;
      hold.mask |= mask;
    }
    const set = this.byWd.get(wd) ?? new Set<Owner>();
    set.add(owner);
    this.byWd.set(wd, set);
    return wd;
  }

  private release(owner: Owner, wd: number, times: number): void {
    const hold = owner.holds.get(wd);
    if (hold === undefined) return; // ended by the kernel already
    hold.count -= times;
    if (hold.count > 0) return;
    owner.holds.delete(wd);
    const set = this.byWd.get(wd);
    set?.delete(owner);
    if (set !== undefined && set.size > 0) return;
    this.byWd.delete(wd);
    this.retiring.add(wd);
    this.inotify?.removeWatch(wd);
  }

  private leave(owner: Owner): void {
    if (!this.owners.has(owner)) return;
    for (const [wd, hold] of [...owner.holds]) this.release(owner, wd, hold.count);
    owner.pending.length = 0;
    this.owners.delete(owner);
    if (this.owners.size > 0) return;
    this.inotify?.close();
    this.inotify = null;
    this.byWd.clear();
    this.retiring.clear();
  }

  private take(owner: Owner): InotifyEvent[] {
    owner.overflowed = false;
    return owner.pending.splice(0);
  }

  /**
   * The queue read, every event handed to the owners of its descriptor (each takes its own
   * with its next drain): many owners polled at once read it once.
   */
  read(): void {
    const events = this.inotify?.drain() ?? [];
    for (const e of events) {
      if ((e.mask & IN_Q_OVERFLOW) !== 0) {
        for (const owner of this.owners) this.overflow(owner);
        continue;
      }
      const ignored = (e.mask & IN_IGNORED) !== 0;
      if (this.retiring.has(e.wd)) {
        if (ignored) this.retiring.delete(e.wd);
        continue;
      }
      const set = this.byWd.get(e.wd);
      if (set === undefined) continue;
      for (const owner of set) {
        const hold = owner.holds.get(e.wd);
        if (hold !== undefined && (e.mask & (hold.mask | ALWAYS)) !== 0) this.keep(owner, e);
        if (ignored) owner.holds.delete(e.wd);
      }
      if (ignored) this.byWd.delete(e.wd);
    }
  }

  /**
   * One event kept for an owner until it drains. Past its limit (an owner that does not
   * drain while others do) it is told of an overflow instead, as the kernel's queue would.
   */
  private keep(owner: Owner, e: InotifyEvent): void {
    // after an overflow only the watches that ended matter: it ends them, then rescans
    if (owner.overflowed && (e.mask & IN_IGNORED) === 0) return;
    owner.pending.push(e);
    if (owner.pending.length > this.ownerLimit) this.overflow(owner);
  }

  private overflow(owner: Owner): void {
    if (owner.overflowed) return;
    owner.overflowed = true;
    owner.pending = [...owner.pending.filter((p) => (p.mask & IN_IGNORED) !== 0), overflowRecord()];
  }
}
