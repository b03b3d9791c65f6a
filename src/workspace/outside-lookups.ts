/**
 * What a path to an outside dependency is looked up through (SPEC §5.3): each name in the
 * directory reached so far, and a link's target in turn. An inotify watch is bound to the
 * directory a path led to, so a link on the way pointed elsewhere, or a directory on the
 * way renamed and made again, leads the path somewhere new without one event where the
 * watch is: the entries it was looked up through are watched too (`LookupWatches`).
 */
import { readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  IN_ATTRIB,
  IN_CREATE,
  IN_DELETE,
  IN_DELETE_SELF,
  IN_IGNORED,
  IN_MOVE_SELF,
  IN_MOVED_FROM,
  IN_MOVED_TO,
  IN_ONLYDIR,
  IN_Q_OVERFLOW,
} from "../ffi/inotify.ts";
import { atOrBelow } from "./paths.ts";
import type { InotifyHub, Watches } from "./watch-hub.ts";

/** One name looked up in one directory. */
export interface Lookup {
  dir: string;
  name: string;
}

/** Links followed on one path at most (the kernel's own limit). */
const MAX_LINKS = 40;

/** A link's target, or null for anything else (a missing path included). */
function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/**
 * The lookups resolving absolute `path` makes, in order, links followed as the kernel does
 * (`..` after a link is taken in the directory the link led to). Pure but for `readlink`.
 */
export function lookupsOf(path: string, readlink = linkTarget): Lookup[] {
  const out: Lookup[] = [];
  let pending = path.split("/").filter((p) => p !== "");
  let dir = "/";
  let links = 0;
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    if (name === ".") continue;
    if (name === "..") {
      dir = dirname(dir);
      continue;
    }
    out.push({ dir, name });
    const next = join(dir, name);
    const target = readlink(next);
    if (target === null) {
      dir = next;
      continue;
    }
    if (++links > MAX_LINKS) break;
    pending = [...target.split("/").filter((p) => p !== ""), ...pending];
    if (target.startsWith("/")) dir = "/";
  }
  return out;
}

/**
 * The lookups of `path` whose change may lead it elsewhere while the root stays where it
 * is: not inside the root (its own watcher sees those), not on the way to the root itself.
 */
export function lookupsToWatch(path: string, rootReal: string, readlink = linkTarget): Lookup[] {
  return lookupsOf(path, readlink).filter(({ dir, name }) => {
    const entry = join(dir, name);
    return !atOrBelow(rootReal, dir) && !atOrBelow(entry, rootReal);
  });
}

/** Entry changes that may point a name elsewhere (its mode too), and the directory going. */
const ENTRY_EVENTS =
  IN_CREATE |
  IN_DELETE |
  IN_MOVED_FROM |
  IN_MOVED_TO |
  IN_ATTRIB |
  IN_DELETE_SELF |
  IN_MOVE_SELF |
  IN_ONLYDIR;
const DIRECTORY_GONE = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED;

interface DirectoryWatch {
  wd: number;
  /** name → the owners looked up through it */
  names: Map<string, Set<object>>;
}

/**
 * Watches on the directory entries owners' paths are looked up through, in the bridge's
 * inotify instance (one watch per directory); `poll` names the owners whose lookups may
 * lead elsewhere now.
 */
export class LookupWatches<O extends object> {
  private readonly byDir = new Map<string, DirectoryWatch>();
  private readonly byWd = new Map<number, string>();
  private watches: Watches | null = null;

  constructor(
    private readonly hub: InotifyHub,
    private readonly rootReal: string,
  ) {}

  /** Watch what `path` is looked up through, for `owner`; false when some of it cannot be. */
  add(owner: O, path: string): boolean {
    let failures = 0;
    for (const { dir, name } of lookupsToWatch(path, this.rootReal)) {
      const d = this.byDir.get(dir) ?? this.watchDirectory(dir);
      if (d === null) {
        failures += 1;
        continue;
      }
      const owners = d.names.get(name) ?? new Set<object>();
      owners.add(owner);
      d.names.set(name, owners);
    }
    return failures === 0;
  }

  remove(owner: O): void {
    for (const [dir, d] of [...this.byDir]) {
      for (const [name, owners] of [...d.names]) {
        owners.delete(owner);
        if (owners.size === 0) d.names.delete(name);
      }
      if (d.names.size === 0) this.drop(dir, d);
    }
  }

  /**
   * The owners an entry they are looked up through changed for since the last poll (the
   * hub's queue read by the caller); after an overflow, every owner.
   */
  poll(): O[] {
    const events = this.watches?.take() ?? [];
    const out = new Set<O>();
    for (const e of events) {
      if ((e.mask & IN_Q_OVERFLOW) !== 0) {
        for (const d of this.byDir.values()) for (const o of d.names.values()) addAll(out, o);
        continue;
      }
      const dir = this.byWd.get(e.wd);
      const d = dir === undefined ? undefined : this.byDir.get(dir);
      if (dir === undefined || d === undefined) continue;
      if ((e.mask & DIRECTORY_GONE) !== 0) {
        for (const o of d.names.values()) addAll(out, o);
        if ((e.mask & IN_IGNORED) !== 0) {
          this.byDir.delete(dir);
          this.byWd.delete(e.wd);
        }
        continue;
      }
      addAll(out, d.names.get(e.name));
    }
    return [...out];
  }

  close(): void {
    this.watches?.close();
    this.watches = null;
    this.byDir.clear();
    this.byWd.clear();
  }

  private watchDirectory(dir: string): DirectoryWatch | null {
    if (this.watches === null) {
      const w = this.hub.watches();
      if ("error" in w) return null;
      this.watches = w;
    }
    const wd = this.watches.addWatch(dir, ENTRY_EVENTS);
    if (typeof wd !== "number") return null;
    const d: DirectoryWatch = { wd, names: new Map() };
    this.byDir.set(dir, d);
    this.byWd.set(wd, dir);
    return d;
  }

  private drop(dir: string, d: DirectoryWatch): void {
    this.byDir.delete(dir);
    this.byWd.delete(d.wd);
    this.watches?.removeWatch(d.wd);
  }
}

function addAll<O>(out: Set<O>, from: Iterable<object> | undefined): void {
  for (const o of from ?? []) out.add(o as O);
}
