/**
 * Linux inotify through `bun:ffi` (the libc loader of libc.ts): the
 * kernel queues an event inside the syscall that changed the file, so a
 * non-blocking read of the queue right before a request sees every change
 * made before that request arrived (SPEC §5.2). No thread, no timer, no event
 * loop callback: the queue is only read when the bridge asks — or, for a wait on
 * a directory (the shared bridge's attach, SPEC §2.2), as a stream the loop polls.
 */
import { FFIType } from "bun:ffi";
import { constants, readFileSync } from "node:fs";
import { cString, EINTR, type LibcSymbols, lastErrno, lazyLibc, O_CLOEXEC } from "./libc.ts";

export const IN_MODIFY = 0x2;
export const IN_CLOSE_WRITE = 0x8;
export const IN_ATTRIB = 0x4;
export const IN_MOVED_FROM = 0x40;
export const IN_MOVED_TO = 0x80;
export const IN_CREATE = 0x100;
export const IN_DELETE = 0x200;
export const IN_DELETE_SELF = 0x400;
export const IN_MOVE_SELF = 0x800;
export const IN_Q_OVERFLOW = 0x4000;
export const IN_IGNORED = 0x8000;
export const IN_ONLYDIR = 0x0100_0000;
export const IN_DONT_FOLLOW = 0x0200_0000;
export const IN_EXCL_UNLINK = 0x0400_0000;
export const IN_ISDIR = 0x4000_0000;

/**
 * What a watched directory reports: its entries created, written, deleted, moved, their
 * attributes changed (mode, owner, times, links); its own attributes; itself gone.
 */
export const DIRECTORY_MASK =
  IN_MODIFY |
  IN_ATTRIB |
  IN_MOVED_FROM |
  IN_MOVED_TO |
  IN_CREATE |
  IN_DELETE |
  IN_DELETE_SELF |
  IN_MOVE_SELF |
  IN_ONLYDIR |
  IN_DONT_FOLLOW |
  IN_EXCL_UNLINK;

export const ENOSPC = 28;
const HEADER_BYTES = 16;
const BUFFER_BYTES = 64 * 1024;

export interface InotifyEvent {
  wd: number;
  mask: number;
  cookie: number;
  /** the entry's name inside the watched directory; "" for events about the directory itself */
  name: string;
}

const decoder = new TextDecoder();

/**
 * Parse `struct inotify_event` records (wd, mask, cookie, len, name padded with NULs)
 * from the first `length` bytes of `buf`. Pure; a truncated record ends the list.
 */
export function parseEvents(buf: Uint8Array, length: number): InotifyEvent[] {
  const view = new DataView(buf.buffer, buf.byteOffset, length);
  const events: InotifyEvent[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= length) {
    const wd = view.getInt32(at, true);
    const mask = view.getUint32(at + 4, true);
    const cookie = view.getUint32(at + 8, true);
    const len = view.getUint32(at + 12, true);
    if (at + HEADER_BYTES + len > length) break;
    const raw = buf.subarray(at + HEADER_BYTES, at + HEADER_BYTES + len);
    const nul = raw.indexOf(0);
    events.push({ wd, mask, cookie, name: decoder.decode(nul < 0 ? raw : raw.subarray(0, nul)) });
    at += HEADER_BYTES + len;
  }
  return events;
}

const symbols = {
  inotify_init1: { args: [FFIType.i32], returns: FFIType.i32 },
  inotify_add_watch: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
  inotify_rm_watch: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64_fast },
  close: { args: [FFIType.i32], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
} as const;

type Libc = LibcSymbols<typeof symbols>;

const libc = lazyLibc(symbols);

function errno(lib: Libc): number {
  return lastErrno(lib.__errno_location);
}

/** Whether this process can watch files (Linux, libc loadable through bun:ffi). */
export function fileWatchingAvailable(): boolean {
  return libc() !== null;
}

/** The kernel's default fs.inotify.max_queued_events (inotify(7)). */
const DEFAULT_QUEUE_LIMIT = 16_384;

/** How many events one instance's queue holds (fs.inotify.max_queued_events). */
export function kernelQueueLimit(): number {
  try {
    const n = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8").trim());
    return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_QUEUE_LIMIT;
  } catch {
    return DEFAULT_QUEUE_LIMIT;
  }
}

/** One inotify instance (close-on-exec, non-blocking). */
export class Inotify {
  private readonly buf = new Uint8Array(BUFFER_BYTES);
  private closed = false;

  private constructor(
    private readonly lib: Libc,
    private readonly fd: number,
    private readonly queueLimit: number,
  ) {}

  /**
   * A new instance, or the reason there is none (not Linux, no libc, instance limit).
   * `queueLimit`: the events its queue holds (the kernel's setting; tests pass less).
   */
  static open(queueLimit = kernelQueueLimit()): Inotify | { error: string } {
    const lib = libc();
    if (lib === null) return { error: "inotify is not available (Linux libc through bun:ffi)" };
    // IN_NONBLOCK and IN_CLOEXEC are O_NONBLOCK and O_CLOEXEC (inotify(7))
    const fd = lib.inotify_init1(constants.O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      return { error: `inotify_init1 failed (errno ${errno(lib)}; fs.inotify.max_user_instances)` };
    }
    return new Inotify(lib, fd, queueLimit);
  }

  /** inotify_add_watch: the watch descriptor, or `{errno}`. */
  addWatch(path: string, mask: number): number | { errno: number } {
    const wd = this.lib.inotify_add_watch(this.fd, cString(path), mask);
    return wd < 0 ? { errno: errno(this.lib) } : wd;
  }

  removeWatch(wd: number): void {
    if (!this.closed) this.lib.inotify_rm_watch(this.fd, wd);
  }

  /**
   * Everything queued when the drain began, and perhaps some queued since; never blocks.
   * The queue holds at most `queueLimit` events and an overflow record, so once that many
   * more were read everything queued at the start was: the drain ends there, and a writer
   * faster than this loop (millions of renames a second) cannot keep a call waiting on it.
   */
  drain(): InotifyEvent[] {
    const events: InotifyEvent[] = [];
    while (!this.closed && events.length <= this.queueLimit) {
      const n = Number(this.lib.read(this.fd, this.buf, this.buf.length));
      if (n > 0) {
        events.push(...parseEvents(this.buf, n));
        continue;
      }
      if (n < 0 && errno(this.lib) === EINTR) continue;
      break; // EAGAIN: the queue is empty
    }
    return events;
  }

  /**
   * The queue as a stream the event loop reads (Bun polls a duplicate of the
   * descriptor), for a wait on events rather than a drain before a request.
   */
  stream(): ReadableStream<Uint8Array> {
    return Bun.file(this.fd).stream();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.lib.close(this.fd);
  }
}
