/**
 * The files of shared bridges that no longer run, removed by each daemon that starts
 * (SPEC §2.2). "No longer runs" is proven by the lock alone, never by age: a bridge's
 * lock that this process can take has no live holder — and while it holds it, no
 * bridge of that name can start. The sockets and the lock go at once; the log is for
 * post-mortem and is kept one sweep longer, as `.log.1` (replacing an older one); a
 * `.log.1` with no `.log` beside it has been kept that sweep and goes.
 */
import { closeSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { log } from "../log.ts";
import { BRIDGE_FILE, holdLock } from "./files.ts";

/** The names (`<24 hex>`) with a file in `entries`, but `own` (pure). */
export function bridgeNames(entries: readonly string[], own: string): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    const name = BRIDGE_FILE.exec(entry)?.[1];
    if (name !== undefined && name !== own) names.add(name);
  }
  return [...names].sort();
}

/** Remove what bridges that no longer run left in `dir`; `own` is the sweeping bridge's name. */
export function sweepStale(dir: string, own: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (err) {
    log.warn(`could not list ${dir} to remove stale files: ${String(err)}`);
    return;
  }
  const present = new Set(entries);
  for (const name of bridgeNames(entries, own)) {
    const base = join(dir, name);
    let fd: number | null;
    try {
      fd = holdLock(`${base}.lock`);
    } catch (err) {
      log.warn(`could not check ${base}.lock: ${String(err)}`);
      continue;
    }
    if (fd === null) continue; // running (or starting): its files are its own
    try {
      for (const kind of ["sock", "ctl"]) rmSync(`${base}.${kind}`, { force: true });
      if (present.has(`${name}.log`)) renameSync(`${base}.log`, `${base}.log.1`);
      else rmSync(`${base}.log.1`, { force: true });
      rmSync(`${base}.lock`, { force: true });
      log.debug(`removed the files of a bridge that no longer runs: ${name}`);
    } catch (err) {
      log.warn(`could not remove the files of ${base}: ${String(err)}`);
    } finally {
      closeSync(fd);
    }
  }
}
