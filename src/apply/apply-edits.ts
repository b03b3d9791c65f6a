/**
 * The applier's whole path (SPEC §7.4): read every target once and check it
 * still has the hash the edit was computed against (the caller decides what
 * drift means: GateDenied for a handle, WorkspaceDrift for a rename), validate
 * the whole edit set, write each file atomically, then have every session that
 * holds a written file open resync it.
 */
import { BridgeError } from "../errors.ts";
import type { PlannedFileEdit } from "../gate/handles.ts";
import { compareStrings } from "../normalize/order.ts";
import type { LineModel } from "../text/line-model.ts";
import type { PositionEncoding } from "../text/positions.ts";
import { readWorkspaceText } from "../workspace/confined.ts";
import { displayPath, type WorkspaceRoot } from "../workspace/paths.ts";
import type { ApplyJournal } from "./journal.ts";
import { planWrites } from "./validate.ts";
import { applyPlannedWrites } from "./write.ts";

export interface AppliedFile {
  file: string;
  edits: number;
}

/** Per target: its text, its SHA-256 and its real workspace-relative path. */
export type Snapshots = Map<string, { text: string; sha256: string; rel: string }>;

/**
 * Every path read once beneath the root (SPEC §8.1): its text and SHA-256. One that cannot
 * be read goes to `unreadable`, which decides what that means (drift, or EditInvalid).
 */
export function readSnapshots(
  ws: WorkspaceRoot,
  paths: readonly string[],
  maxFileBytes: number,
  unreadable: (abs: string, err: BridgeError) => void,
): Snapshots {
  const snapshots: Snapshots = new Map();
  for (const abs of paths) {
    try {
      const { text, sha256, rel } = readWorkspaceText(ws.rootReal, abs, maxFileBytes);
      snapshots.set(abs, { text, sha256, rel });
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

export function driftError(files: string[], hint: string): BridgeError {
  return new BridgeError(
    "WorkspaceDrift",
    `files changed since the edit was computed: ${files.join(", ")}`,
    {
      hint,
      details: { files },
    },
  );
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
}

/** Whoever holds files open on the servers' side: told which files the applier wrote. */
export interface WrittenFilesListener {
  /** didChange (and didSave where the server wants it) for every open copy (SPEC §7.4) */
  resyncWritten(written: string[]): void;
}

/**
 * Validate the whole edit set against the snapshots the caller checked, write (the
 * writer re-hashes every target right before it writes, SPEC §7.3), then resync.
 */
export async function applyEdits(
  { workspace: ws, files, snapshots, encoding, lines, maxFileBytes, journal }: ApplyRequest,
  sessions: WrittenFilesListener,
): Promise<AppliedFile[]> {
  const plans = planWrites(
    files.map((f) => {
      const snap = snapshots.get(f.abs);
      if (!snap) throw new BridgeError("EditInvalid", `no snapshot for ${f.abs}`);
      return { snapshot: { abs: f.abs, text: snap.text, sha256: snap.sha256 }, edits: f.edits };
    }),
    encoding,
    lines,
  );
  const { written } = await applyPlannedWrites(ws, plans, maxFileBytes, journal);
  sessions.resyncWritten(written);
  return plans
    .map((p) => ({ file: displayPath(ws, p.abs), edits: p.editCount }))
    .sort((a, b) => compareStrings(a.file, b.file));
}
