/**
 * After the kernel's event queue overflowed (SPEC §5.2): every watched directory compared
 * with the disk instead of the lost events — vanished files deleted, new ones created,
 * every other file changed, links and packages followed as events would have.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { DIRECTORY_MASK } from "../ffi/inotify.ts";
import type { FileChange } from "./file-events.ts";
import type { WatchedDirectory, WatchIndex } from "./watch-index.ts";
import { scopeByName } from "./watch-scope.ts";

/**
 * After a queue overflow: every watched directory against the disk; existing files
 * changed. Each directory's watch is added again: the kernel answers with the same
 * descriptor while that watch lasts, and with a new one when the name now holds another
 * directory (the old one removed or moved away in the lost events), which is then
 * indexed as new — its old watch would never report anything again. That probe's own
 * hold on the descriptor is let go after (watch-hub.ts counts holds).
 */
export function rescan(index: WatchIndex, changes: FileChange[]): void {
  for (const [dir, entry] of [...index.dirs]) {
    // removed, or replaced, as part of a subtree handled before
    if (index.dirs.get(dir) !== entry) continue;
    const wd = index.watches.addWatch(dir, DIRECTORY_MASK);
    if (typeof wd !== "number") {
      index.removeTree(dir, changes, true); // gone, or no directory any more
      continue;
    }
    compareOne(index, dir, entry, wd, changes);
    // not watched after all (the bound, a CACHEDIR.TAG now, gone): no stray watch
    index.watches.removeWatch(wd);
  }
}

/** One directory rescanned, `wd` what adding its watch again answered. */
function compareOne(
  index: WatchIndex,
  dir: string,
  entry: WatchedDirectory,
  wd: number,
  changes: FileChange[],
): void {
  if (wd !== entry.wd || index.byWd.get(wd) !== dir) {
    index.removeTree(dir, changes, true);
    index.addTree(dir, changes);
    return;
  }
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    index.removeTree(dir, changes, true);
    return;
  }
  compare(index, dir, entry, entries, changes);
}

/** One watched directory's index against its listing now (rescan). */
function compare(
  index: WatchIndex,

  dir: string,
  entry: WatchedDirectory,
  entries: Dirent[],
  changes: FileChange[],
): void {
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const e of entries) (e.isDirectory() ? dirs : files).add(e.name);
  for (const f of entry.files) {
    const abs = join(dir, f);
    changes.push({ abs, kind: files.has(f) ? "changed" : "deleted" });
    if (!files.has(f) && index.links.has(abs)) index.relink(abs, changes, true);
  }
  for (const e of entries) {
    if (e.isDirectory() || entry.files.has(e.name)) continue;
    changes.push({ abs: join(dir, e.name), kind: "created" });
    if (e.isSymbolicLink()) index.relink(join(dir, e.name), changes);
  }
  const pkg = (d: string) => entry.container && scopeByName(join(dir, d)) === "package";
  for (const d of entry.dirs) {
    if (dirs.has(d)) continue;
    if (pkg(d)) changes.push({ abs: join(dir, d), kind: "deleted" });
    else index.removeTree(join(dir, d), changes, true);
  }
  // a package still there may have been replaced among the lost events
  for (const d of dirs) {
    if (pkg(d))
      changes.push({ abs: join(dir, d), kind: entry.dirs.has(d) ? "changed" : "created" });
  }
  entry.files = files;
  const added = [...dirs].filter((d) => !entry.dirs.has(d) && !pkg(d));
  entry.dirs = dirs;
  for (const d of added) index.addTree(join(dir, d), changes);
}
