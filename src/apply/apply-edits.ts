/**
 * The applier's whole path (SPEC §7.4): read every target once and check it
 * still has the hash the edit was computed against (the caller decides what
 * drift means: GateDenied for a handle, WorkspaceDrift for a rename), validate
 * the whole edit set, write each file atomically, then have every session that
 * holds a written file open resync it. No file's text is kept past its turn: the
 * snapshots are hashes, each file is planned from its text read again (lane.ts).
 */
import { relative } from "node:path";
import { BridgeError } from "../errors.ts";
import type { PlannedFileEdit } from "../gate/handles.ts";
import { compareStrings } from "../normalize/order.ts";
import type { LineModel } from "../text/line-model.ts";
import type { PositionEncoding } from "../text/positions.ts";
import { hashWorkspaceFile, readWorkspaceText } from "../workspace/confined.ts";
import { displayPath, type WorkspaceRoot } from "../workspace/paths.ts";
import { driftedError, noSnapshot } from "./apply-errors.ts";
import type { ApplyJournal } from "./journal.ts";
import type { ApplyLane } from "./lane.ts";
import { type PlannedWrite, planWrite, refuseRepeated } from "./validate.ts";
import { applyPlannedWrites } from "./write.ts";

export interface AppliedFile {
  file: string;
  edits: number;
}

/**
 * Each target's SHA-256 as the caller checked it (what its edits are computed against), and
 * its real workspace-relative path.
 */
export type Snapshots = Map<string, { sha256: string; rel: string }>;

/**
 * Every path read once beneath the root (SPEC §8.1): its SHA-256. One that cannot
 * be read goes to `unreadable`, which decides what that means (drift, or EditInvalid).
 */
export function readSnapshots(
  ws: WorkspaceRoot,
  paths: readonly string[],
  maxFileBytes: number,
  unreadable: (abs: string, err: BridgeError) => void,
): Snapshots {
  const snapshots: Snapshots = new Map();
  const buffer = { buffer: Buffer.alloc(0) };
  for (const abs of paths) {
    try {
      // checked to be UTF-8 and in bounds, hashed, and nothing of it kept
      const read = hashWorkspaceFile(ws.rootReal, abs, maxFileBytes, buffer);
      snapshots.set(abs, { sha256: read.sha256, rel: relative(ws.rootReal, read.abs) });
    } catch (err) {
      if (!(err instanceof BridgeError)) throw err;
      unreadable(abs, err);
    }
  }
  return snapshots;
}

/**
 * Read every target once: its current text, and whether its hash still equals the one
 * the edit was computed against (an unreadable target counts as drifted).
 */
export function readTargets(
  ws: WorkspaceRoot,
  targets: { abs: string; sha256: string }[],
  maxFileBytes: number,
): { snapshots: Snapshots; drifted: string[] } {
  const drifted: string[] = [];
  const paths = targets.map((t) => t.abs);
  const snapshots = readSnapshots(ws, paths, maxFileBytes, (abs) =>
    drifted.push(displayPath(ws, abs)),
  );
  for (const t of targets) {
    const now = snapshots.get(t.abs);
    if (now !== undefined && now.sha256 !== t.sha256) drifted.push(displayPath(ws, t.abs));
  }
  return { snapshots, drifted: drifted.sort(compareStrings) };
}

/**
 * One edit set to write: the edits, the texts they were checked against, their encoding
 * and the server's lines they count in.
 */
export interface ApplyRequest {
  workspace: WorkspaceRoot;
  files: PlannedFileEdit[];
  snapshots: Snapshots;
  encoding: PositionEncoding;
  /** the models the edits may count in (SPEC §5, text/line-rule.ts) */
  lines: readonly LineModel[];
  maxFileBytes: number;
  /** where the apply's intent record is kept (SPEC §7.4) */
  journal: ApplyJournal;
  /** one apply at a time, turns between files */
  lane: ApplyLane;
}

/** Whoever holds files open on the servers' side: told which files the applier wrote. */
export interface WrittenFilesListener {
  /** didChange (and didSave where the server wants it) for every open copy (SPEC §7.4) */
  resyncWritten(written: string[]): Promise<void>;
}

/**
 * Validate the whole edit set against the snapshots the caller checked, write (the
 * writer re-hashes every target right before it writes, SPEC §7.3), then resync. Planning
 * and writing run in the lane: after any apply before it, a file at a time.
 */
export async function applyEdits(
  req: ApplyRequest,
  sessions: WrittenFilesListener,
): Promise<AppliedFile[]> {
  const { workspace: ws, maxFileBytes, journal, lane } = req;
  const { plans, written } = await lane.run(async () => {
    const plans = await planEach(req);
    return { plans, ...(await applyPlannedWrites(ws, plans, maxFileBytes, journal, {}, lane)) };
  });
  await sessions.resyncWritten(written);
  return plans
    .map((p) => ({ file: displayPath(ws, p.abs), edits: p.editCount }))
    .sort((a, b) => compareStrings(a.file, b.file));
}

/**
 * Every file's edits validated against its text read now, which must be the snapshot's
 * (else `WorkspaceDrift`), one file at a time: its text is gone before the next is read.
 */
async function planEach(req: ApplyRequest): Promise<PlannedWrite[]> {
  const { workspace: ws, files, snapshots, encoding, lines, maxFileBytes, lane } = req;
  refuseRepeated(files.map((f) => f.abs));
  const plans: PlannedWrite[] = [];
  const drifted: string[] = [];
  for (const f of files) {
    const snap = snapshots.get(f.abs);
    if (!snap) throw noSnapshot(f.abs);
    let now: { text: string; sha256: string; bytes: number } | undefined;
    try {
      now = readWorkspaceText(ws.rootReal, f.abs, maxFileBytes);
    } catch (err) {
      if (!(err instanceof BridgeError)) throw err;
    }
    if (now?.sha256 !== snap.sha256) drifted.push(displayPath(ws, f.abs));
    else
      plans.push(
        planWrite({ abs: f.abs, text: now.text, sha256: now.sha256 }, f.edits, encoding, lines),
      );
    await lane.between(now?.bytes ?? 0);
  }
  if (drifted.length > 0) {
    throw driftedError(drifted.sort(compareStrings), "since the edits were computed");
  }
  return plans;
}
