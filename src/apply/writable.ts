/**
 * May the bridge replace this file? (SPEC §7.4) A replace is a rename, which the kernel
 * allows whatever the file's own mode says, and which gives the new file the bridge's
 * owner. So the applier decides from the file's mode and owner itself, before anything is
 * written: a file its user could not write in place is refused, and so is one whose owner
 * or group the replacement could not keep. Pure: unit-tested without files.
 */

export interface ModeOwner {
  mode: number;
  uid: number;
  gid: number;
}

export interface BridgeUser {
  uid: number;
  gid: number;
  /** supplementary groups */
  groups: readonly number[];
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

function inGroup(user: BridgeUser, gid: number): boolean {
  return user.gid === gid || user.groups.includes(gid);
}

/** The permission bits (shifted to the "other" position) that apply to `user` for `x`. */
function classBits(x: ModeOwner, user: BridgeUser): number {
  if (x.uid === user.uid) return (x.mode >> 6) & 7;
  if (inGroup(user, x.gid)) return (x.mode >> 3) & 7;
  return x.mode & 7;
}

const W = 2;
const X = 1;

/** Why `user` may not replace `file` in `dir`, or undefined when it may. */
export function writeRefusal(
  file: ModeOwner,
  dir: ModeOwner,
  user: BridgeUser,
): string | undefined {
  if (user.uid === 0) {
    // root passes every permission check: only a file with no write bit at all says "read-only"
    return (file.mode & 0o222) === 0
      ? `the file is read-only (mode ${octal(file.mode)})`
      : undefined;
  }
  if ((classBits(file, user) & W) === 0) {
    return `the file is not writable for uid ${user.uid} (mode ${octal(file.mode)}, owner ${file.uid}:${file.gid})`;
  }
  if (file.uid !== user.uid) {
    return `the file is owned by uid ${file.uid}; replacing it would make uid ${user.uid} its owner`;
  }
  if (!inGroup(user, file.gid)) {
    return `the file's group ${file.gid} is not one of uid ${user.uid}'s; replacing it would change its group`;
  }
  const dirBits = classBits(dir, user);
  if ((dirBits & (W | X)) !== (W | X)) {
    return `its directory is not writable for uid ${user.uid} (mode ${octal(dir.mode)}, owner ${dir.uid}:${dir.gid})`;
  }
  return undefined;
}

/** The bridge process's user. */
export function bridgeUser(): BridgeUser {
  return {
    uid: process.geteuid?.() ?? process.getuid?.() ?? -1,
    gid: process.getegid?.() ?? process.getgid?.() ?? -1,
    groups: process.getgroups?.() ?? [],
  };
}

/** What else decides whether a replacement keeps the file what it was (SPEC §7.4). */
export interface LinksAndFlags {
  /** names the file has (its link count) */
  nlink: number;
  /** the file's inode flags (`chattr`) */
  flags: number;
  /** its directory's inode flags */
  dirFlags: number;
}

/** Inode flags that forbid replacing an entry (the kernel's FS_IMMUTABLE_FL, FS_APPEND_FL). */
const IMMUTABLE = 0x10;
const APPEND_ONLY = 0x20;

function flagNames(flags: number): string {
  const names: string[] = [];
  if (flags & IMMUTABLE) names.push("immutable");
  if (flags & APPEND_ONLY) names.push("append-only");
  return names.join(" and ");
}

/**
 * Why replacing the file would not keep it what it is, or undefined: a file with more than
 * one name would be split (the others keep the old text), and an immutable or append-only
 * file or directory cannot have an entry replaced or removed (a temp file would be left).
 */
export function replaceRefusal(x: LinksAndFlags): string | undefined {
  if (x.nlink > 1) {
    return `the file has ${x.nlink} hard links; replacing one name would leave the others with the old text`;
  }
  if (x.flags & (IMMUTABLE | APPEND_ONLY)) return `the file is ${flagNames(x.flags)} (chattr)`;
  if (x.dirFlags & (IMMUTABLE | APPEND_ONLY)) {
    return `its directory is ${flagNames(x.dirFlags)} (chattr): no entry in it can be replaced`;
  }
  return undefined;
}
