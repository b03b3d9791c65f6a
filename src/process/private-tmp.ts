/**
 * A server's own temporary directory (SPEC §9.2). Language servers leave files behind in
 * the shared temporary directory — typescript-language-server makes a directory per
 * tsserver for its cancellation pipes and never removes it, two per start — and a sandbox
 * that runs sessions for hours fills up with them. The launcher makes a fresh directory
 * (mode 0700, beneath the TMPDIR the server would have had), the supervisor gives it to the
 * server as `TMPDIR` and removes it with everything in it once the whole tree is dead, on
 * every path it reaps; the launcher removes it again after the supervisor's exit. A bridge
 * killed outright takes its supervisors with it (a parent-death signal), so the name says
 * whose it is — the bridge's pid, start time and pid namespace — and the next bridge of
 * that namespace to make one removes those of bridges no longer alive.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { isAlive, readProc } from "./proctree.ts";

/** The prefix of every private directory; its owner follows. */
export const PRIVATE_TMP_PREFIX = "theodolite-server-";

/** The bridge a directory is made for: its pid, its start time, its pid namespace's inode. */
export interface TmpOwner {
  pid: number;
  start: number;
  pidNs: number;
}

/** This process as the owner of the directories it makes. */
export function thisProcessAsOwner(): TmpOwner {
  let pidNs = 0;
  try {
    pidNs = statSync("/proc/self/ns/pid").ino;
  } catch {
    // no namespace to name: nothing of ours is ever taken for another's
  }
  return { pid: process.pid, start: readProc(process.pid)?.startTime ?? 0, pidNs };
}

const OWNED = /^theodolite-server-(\d{1,10})-(\d{1,20})-(\d{1,20})-[A-Za-z0-9]{6}$/;

/** The owner a directory's name gives, or null for any other name. */
export function ownerOf(name: string): TmpOwner | null {
  const m = OWNED.exec(name);
  if (m === null) return null;
  return { pid: Number(m[1]), start: Number(m[2]), pidNs: Number(m[3]) };
}

/**
 * Of `names`, the directories that bridges of pid namespace `pidNs` left behind and that
 * no live bridge owns: only there does a pid name the same process for every reader.
 */
export function leftBehind(
  names: readonly string[],
  pidNs: number,
  alive: (pid: number, start: number) => boolean,
): string[] {
  return names.filter((name) => {
    const o = ownerOf(name);
    return o !== null && o.pidNs === pidNs && !alive(o.pid, o.start);
  });
}

/** Remove what `leftBehind` names beneath `parent`, our own directories only. */
function sweep(parent: string, pidNs: number): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of leftBehind(names, pidNs, isAlive)) {
    const path = join(parent, name);
    try {
      const st = lstatSync(path);
      if (st.isDirectory() && st.uid === uid) removePrivateTmp(path);
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * A new private directory beneath `base` (the TMPDIR the server would have had, else
 * /tmp), or the reason there is none: the server then keeps the shared one. Those that
 * dead bridges of `owner`'s namespace left there go first.
 */
export function makePrivateTmp(
  base: string | undefined,
  owner: TmpOwner,
): { dir: string } | { failed: string } {
  const parent = base?.startsWith("/") ? (base as string) : "/tmp";
  sweep(parent, owner.pidNs);
  const tag = `${owner.pid}-${owner.start}-${owner.pidNs}`;
  try {
    // mkdtemp: a name nobody had, created 0700 by us
    return { dir: mkdtempSync(join(parent, `${PRIVATE_TMP_PREFIX}${tag}-`)) };
  } catch (err) {
    return { failed: `no private temporary directory in ${parent}: ${String(err)}` };
  }
}

/**
 * Remove `dir` and everything in it; links inside are removed, never followed. Returns
 * why it could not, or undefined. Called only once no process of the tree is left to
 * write into it.
 */
export function removePrivateTmp(dir: string): string | undefined {
  try {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  } catch (err) {
    return `could not remove ${dir}: ${String(err)}`;
  }
}
