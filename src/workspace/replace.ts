/**
 * Atomic replacement of a workspace file inside a directory handle (SPEC §7.4, §8.1): the
 * temp file is created exclusively in the very directory that was verified to lie beneath
 * the root, filled, given everything the original carries (owner, mode, extended
 * attributes, inode flags), fsynced, and swapped in within the same handle so that the
 * replaced file stays reachable under another name until the caller has checked it.
 * Nothing here resolves a path by name.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  type Stats,
  writeSync,
} from "node:fs";
import {
  getFlags,
  readXattrs,
  removeXattr,
  setFlags,
  USER_MODIFIABLE_FLAGS,
  writeXattr,
} from "../ffi/file-attributes.ts";
import { exchangeAt, linkAt, OPEN, openAt, renameAt, unlinkAt } from "../ffi/syscalls.ts";

/** Linux NAME_MAX, in bytes. */
const NAME_MAX = 255;

/** What a file carries besides its bytes, mode and owner: kept across its replacement. */
export interface Carried {
  /** inode flags the owner may set (`chattr`), see USER_MODIFIABLE_FLAGS */
  flags: number;
  /** extended attributes (ACLs, security labels, user.*) */
  xattrs: Map<string, Uint8Array>;
}

/** What an open file carries over (read before anything is written). */
export function readCarried(fd: number): Carried {
  return { flags: getFlags(fd) & USER_MODIFIABLE_FLAGS, xattrs: readXattrs(fd) };
}

/**
 * Names beside `base` the apply owns for one file: the temp file that will hold the new
 * text, and, where the file system cannot exchange two entries, the second name that keeps
 * the replaced file. Random, so that nothing else is ever taken for them.
 */
export function sideNames(base: string): { tmp: string; bak: string } {
  const random = randomBytes(8).toString("hex");
  const side = (ext: string) => {
    const suffix = `.theodolite-${random}.${ext}`;
    return `.${truncateUtf8(base, NAME_MAX - 1 - Buffer.byteLength(suffix))}${suffix}`;
  };
  return { tmp: side("tmp"), bak: side("old") };
}

/**
 * Create `tmp` in `dirFd` holding `parts` one after another, with the original's owner (where the bridge may
 * set it), extended attributes, mode and inode flags, fsynced. On failure the temp file is
 * removed (when it can be) and the failure thrown.
 */
export function prepareReplacement(
  dirFd: number,
  tmp: string,
  parts: readonly Uint8Array[],
  original: Stats,
  carried: Carried,
): void {
  const fd = openAt(dirFd, tmp, OPEN.createExclusive, 0o600);
  try {
    try {
      for (const part of parts) writeAll(fd, part);
      keepOwner(fd, original);
      // what the directory gave the new file (a default ACL) goes; what the original had comes
      const own = readXattrs(fd);
      for (const name of own.keys()) if (!carried.xattrs.has(name)) removeXattr(fd, name);
      for (const [name, value] of carried.xattrs) writeXattr(fd, name, value);
      // after chown (it clears set-id bits) and the ACL (chmod sets its mask to the mode)
      fchmodSync(fd, original.mode & 0o7777);
      if ((getFlags(fd) & USER_MODIFIABLE_FLAGS) !== carried.flags) {
        setFlags(fd, (getFlags(fd) & ~USER_MODIFIABLE_FLAGS) | carried.flags);
      }
      keptAsItWas(fd, original, carried);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    discardReplacement(dirFd, tmp);
    throw err;
  }
}

/** How a prepared file was put in place, and the name the replaced file has now. */
export interface Swap {
  how: "exchange" | "link";
  /** the replaced file's name in the directory until it is removed */
  old: string;
}

/**
 * Put the prepared `tmp` in place of `name`, atomically, keeping the file it replaces
 * under another name (SPEC §7.4): renameat2 RENAME_EXCHANGE where the file system offers it
 * (the replaced file then has the temp file's name); else a hard link `bak` to the current
 * file, then the rename. Whatever was at `name` at that moment is what `old` names, so the
 * caller can check it is the file the edit was computed against.
 */
export function swapIn(
  dirFd: number,
  tmp: string,
  name: string,
  bak: string,
  /** tests: take the path of a file system without RENAME_EXCHANGE */
  exchange = true,
): Swap {
  if (exchange && exchangeAt(dirFd, tmp, name)) return { how: "exchange", old: tmp };
  linkAt(dirFd, name, bak);
  try {
    renameAt(dirFd, tmp, name);
  } catch (err) {
    discardReplacement(dirFd, bak);
    throw err;
  }
  return { how: "link", old: bak };
}

/**
 * Undo swapIn: the replaced file back under `name`. After an exchange the new file sits
 * at the temp name again (the caller removes it); after a link it is gone.
 */
export function swapBack(dirFd: number, swap: Swap, name: string): void {
  if (swap.how === "exchange") {
    if (!exchangeAt(dirFd, swap.old, name)) throw new Error("renameat2 RENAME_EXCHANGE failed");
  } else {
    renameAt(dirFd, swap.old, name);
  }
}

/**
 * Remove an entry the apply owns, best effort: it runs while another error is on its way
 * out, or after the work is done. False when it is still there (the caller says so).
 */
export function discardReplacement(dirFd: number, entry: string): boolean {
  try {
    unlinkAt(dirFd, entry);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Remove the replaced file's name the apply holds, after a commit; how many names the file
 * still has elsewhere (a hard link made in the window SPEC §7.4 states: they keep the old
 * text), or undefined when the name could not be removed.
 */
export function discardReplaced(dirFd: number, entry: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openAt(dirFd, entry, OPEN.entry);
  } catch {
    // gone already: nothing of it to count
  }
  try {
    if (!discardReplacement(dirFd, entry)) return undefined;
    return fd === undefined ? 0 : fstatSync(fd).nlink;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Make renames in this directory durable. */
export function syncDirectory(dirFd: number): void {
  fsyncSync(dirFd);
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  let out = "";
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) {
    offset += writeSync(fd, data, offset, data.length - offset);
  }
}

/**
 * The original's owner and group on the new file: it was created with the bridge's user and
 * the group the directory gives (a set-group-ID directory gives its own). Setting them
 * may fail for an unprivileged bridge; keptAsItWas then refuses the file.
 */
function keepOwner(fd: number, original: Stats): void {
  const made = fstatSync(fd);
  if (made.uid === original.uid && made.gid === original.gid) return;
  try {
    fchownSync(fd, original.uid, original.gid);
  } catch {
    // refused below, with what differs
  }
}

/** The new file carries what the original does, or the apply is refused (SPEC §7.4). */
function keptAsItWas(fd: number, original: Stats, carried: Carried): void {
  const made = fstatSync(fd);
  const differs: string[] = [];
  if (made.uid !== original.uid || made.gid !== original.gid) {
    differs.push(`owner ${made.uid}:${made.gid} instead of ${original.uid}:${original.gid}`);
  }
  if ((made.mode & 0o7777) !== (original.mode & 0o7777)) differs.push("mode");
  const names = [...readXattrs(fd).keys()].sort().join(",");
  if (names !== [...carried.xattrs.keys()].sort().join(",")) differs.push("extended attributes");
  if (differs.length > 0) {
    throw new Error(`the new file would not keep what the file has: ${differs.join(", ")}`);
  }
}
