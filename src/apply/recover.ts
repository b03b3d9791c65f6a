/**
 * The next bridge on a workspace finishes or undoes an apply a killed bridge left half done
 * (SPEC §7.4): every unlocked record of this root (journal.ts) is read; without its commit
 * mark the apply is undone — each file that holds the new text while its old text survives
 * under the apply's temp or second name gets the old text back — and with it the apply is
 * finished. Either way every temp file and second name the record lists is removed, and a
 * file that holds neither text (changed since) is left as found and named. What was done
 * is logged and kept for `session_status`.
 */
import { closeSync, fstatSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { isBridgeError } from "../errors.ts";
import { exchangeAt, OPEN, openAt, renameAt, tryLockExclusive, unlinkAt } from "../ffi/syscalls.ts";
import { log } from "../log.ts";
import { openDirBeneath, readBounded } from "../workspace/confined.ts";
import { sha256Hex } from "../workspace/files.ts";
import { atOrBelow } from "../workspace/paths.ts";
import { discardReplacement, syncDirectory } from "../workspace/replace.ts";
import {
  type ApplyJournal,
  baseChecked,
  COMMITTED,
  type IntentRecordData,
  privateDirExists,
  RECORD_VERSION,
  type RecordEntry,
  type RecoveryReport,
  rootKey,
} from "./journal.ts";

/** Records kept for session_status, newest last. */
const MAX_REPORTS = 16;
/** A record names at most a few thousand files: far less than this. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** SHA-256 of the regular file `name` in `dirFd`, or undefined (missing, not a file, too big). */
function hashOf(dirFd: number, name: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openAt(dirFd, name, OPEN.readFile);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    return sha256Hex(readBounded(fd, stat.size, maxBytes, name));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Put the old text back under `name` from where it survives; false when it does not. */
function restore(dirFd: number, e: RecordEntry, tmpHash?: string, bakHash?: string): boolean {
  if (tmpHash === e.old) {
    if (!exchangeAt(dirFd, e.tmp, e.name)) renameAt(dirFd, e.tmp, e.name);
    return true;
  }
  if (bakHash === e.old) {
    renameAt(dirFd, e.bak, e.name);
    return true;
  }
  return false;
}

function recoverEntry(
  rootReal: string,
  e: RecordEntry,
  undo: boolean,
  maxBytes: number,
  report: RecoveryReport,
): void {
  const file = e.dir === "" ? e.name : `${e.dir}/${e.name}`;
  let dirFd: number;
  try {
    dirFd = openDirBeneath(rootReal, e.dir === "" ? [] : e.dir.split("/"), OPEN.dirHandle);
  } catch {
    report.left.push({ file, reason: "its directory is gone or no longer beneath the root" });
    return;
  }
  try {
    const now = hashOf(dirFd, e.name, maxBytes);
    const tmpHash = hashOf(dirFd, e.tmp, maxBytes);
    const bakHash = hashOf(dirFd, e.bak, maxBytes);
    if (undo && now === e.new) {
      if (restore(dirFd, e, tmpHash, bakHash)) report.restored.push(file);
      else report.left.push({ file, reason: "it holds the new text; the old text was not found" });
    } else if (now !== (undo ? e.old : e.new)) {
      report.left.push({
        file,
        reason:
          now === undefined ? "it is gone" : "it changed since (neither the old nor the new text)",
      });
    }
    for (const side of [e.tmp, e.bak]) {
      if (!exists(dirFd, side)) continue;
      if (discardReplacement(dirFd, side)) report.temp_files_removed++;
      else
        report.left.push({
          file: e.dir === "" ? side : `${e.dir}/${side}`,
          reason: "cannot be removed",
        });
    }
    syncDirectory(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

function exists(dirFd: number, name: string): boolean {
  try {
    closeSync(openAt(dirFd, name, OPEN.entry));
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

function parseRecord(fd: number): IntentRecordData | undefined {
  try {
    const data = JSON.parse(
      readBounded(fd, fstatSync(fd).size, MAX_RECORD_BYTES, "record").toString("utf8"),
    );
    if (data?.version !== RECORD_VERSION || !Array.isArray(data.files)) return undefined;
    return data as IntentRecordData;
  } catch {
    return undefined;
  }
}

/** Recover one record file (already locked): its report, or undefined when it is not ours. */
function recoverRecord(
  dirFd: number,
  fd: number,
  name: string,
  rootReal: string,
  maxBytes: number,
): RecoveryReport | undefined {
  // unlinked after we opened it: its apply ended meanwhile
  if (fstatSync(fd).nlink === 0) return undefined;
  const data = parseRecord(fd);
  if (data === undefined || data.root !== rootReal) {
    log.warn(`apply record ${name} is unreadable or names another root; left in place`);
    return undefined;
  }
  const committed = exists(dirFd, name + COMMITTED);
  const report: RecoveryReport = {
    at: new Date().toISOString(),
    record: name,
    action: committed ? "finished" : "undone",
    files: data.files.length,
    restored: [],
    temp_files_removed: 0,
    left: [],
  };
  for (const entry of data.files) recoverEntry(rootReal, entry, !committed, maxBytes, report);
  for (const done of [name + COMMITTED, name]) {
    try {
      unlinkAt(dirFd, done);
    } catch {
      // the mark is absent for an undone apply
    }
  }
  syncDirectory(dirFd);
  return report;
}

/**
 * Finish or undo every apply a dead bridge left on the workspace at `rootReal`; records of
 * applies still running (locked by a live bridge) are left alone.
 */
export function recoverApplies(
  journal: ApplyJournal,
  rootReal: string,
  maxBytes: number,
): RecoveryReport[] {
  const reports: RecoveryReport[] = [];
  for (const dir of journal.recordDirs()) {
    // records inside the workspace would be anyone's to forge (SPEC §8): never read
    if (atOrBelow(rootReal, dir)) continue;
    try {
      if (!privateDirExists(dir)) continue;
      baseChecked(dirname(dir));
    } catch (err) {
      if (isBridgeError(err)) log.warn(`interrupted applies not checked: ${err.message}`);
      continue;
    }
    reports.push(...recoverIn(dir, rootReal, maxBytes));
  }
  journal.recovered.push(...reports);
  journal.recovered.splice(0, Math.max(0, journal.recovered.length - MAX_REPORTS));
  return reports;
}

/** Every unlocked record of this root in one records directory, recovered. */
function recoverIn(dir: string, rootReal: string, maxBytes: number): RecoveryReport[] {
  const prefix = `${rootKey(rootReal)}-`;
  const names = readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith(".json"));
  if (names.length === 0) return [];
  const dirFd = openAt(null, dir, OPEN.dirHandle);
  const reports: RecoveryReport[] = [];
  try {
    for (const name of names.sort()) {
      let fd: number;
      try {
        fd = openAt(dirFd, name, OPEN.readFile);
      } catch {
        continue; // ended meanwhile
      }
      try {
        if (!tryLockExclusive(fd)) continue; // a live bridge's apply
        const report = recoverRecord(dirFd, fd, name, rootReal, maxBytes);
        if (report === undefined) continue;
        reports.push(report);
        log.warn(
          `an interrupted apply (${report.files} files) was ${report.action}: ` +
            `${report.restored.length} restored, ${report.temp_files_removed} temp files removed` +
            (report.left.length > 0
              ? `, left as found: ${report.left.map((l) => l.file).join(", ")}`
              : ""),
        );
      } finally {
        closeSync(fd);
      }
    }
  } finally {
    closeSync(dirFd);
  }
  return reports;
}
