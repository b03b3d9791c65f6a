/**
 * The applier's whole path (SPEC §7.4): re-read every target, check it still
 * has the hash the edit was computed against (else WorkspaceDrift, nothing
 * written), validate the whole edit set, write each file atomically, then
 * resync every session that has a written file open.
 */
import type { BridgeContext } from "../bridge.ts";
import { BridgeError } from "../errors.ts";
import type { PlannedFileEdit } from "../gate/handles.ts";
import type { PositionEncoding } from "../lsp/positions.ts";
import { displayPath, readTextFile } from "../workspace/files.ts";
import { planWrites } from "./validate.ts";
import { applyPlannedWrites } from "./write.ts";

export interface AppliedFile {
  file: string;
  edits: number;
}

/** Current snapshots, or WorkspaceDrift naming every target whose hash moved. */
export function snapshotTargets(
  root: string,
  targets: { abs: string; sha256: string }[],
  maxFileBytes: number,
): Map<string, { text: string; sha256: string }> {
  const snaps = new Map<string, { text: string; sha256: string }>();
  const drifted: string[] = [];
  for (const t of targets) {
    try {
      const { text, sha256 } = readTextFile(t.abs, maxFileBytes);
      snaps.set(t.abs, { text, sha256 });
      if (sha256 !== t.sha256) drifted.push(displayPath(root, t.abs));
    } catch {
      drifted.push(displayPath(root, t.abs));
    }
  }
  if (drifted.length > 0) {
    throw new BridgeError(
      "WorkspaceDrift",
      `files changed since the edit was computed: ${drifted.join(", ")}`,
      {
        hint: "list the actions or preview the rename again on the current files",
        details: { files: drifted.sort() },
      },
    );
  }
  return snaps;
}

export async function applyEdits(
  bridge: BridgeContext,
  root: string,
  files: PlannedFileEdit[],
  targets: { abs: string; sha256: string }[],
  encoding: PositionEncoding,
): Promise<AppliedFile[]> {
  const max = bridge.config.bridge.max_file_bytes;
  const snaps = snapshotTargets(root, targets, max);
  const plans = planWrites(
    files.map((f) => {
      const snap = snaps.get(f.abs);
      if (!snap) throw new BridgeError("EditInvalid", `no snapshot for ${f.abs}`);
      return { snapshot: { abs: f.abs, text: snap.text, sha256: snap.sha256 }, edits: f.edits };
    }),
    encoding,
  );
  const { written } = await applyPlannedWrites(root, plans, max);
  resyncSessions(bridge, written);
  return plans
    .map((p) => ({ file: displayPath(root, p.abs), edits: p.editCount }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** didChange (and didSave where the server wants it) to every session holding a written file. */
export function resyncSessions(bridge: BridgeContext, written: string[]): void {
  for (const session of bridge.sessions.all()) {
    if (session.state !== "ready" && session.state !== "waiting_ready") continue;
    for (const abs of written) {
      if (!session.documents.byPath(abs)) continue;
      try {
        const { text, sha256 } = readTextFile(abs, bridge.config.bridge.max_file_bytes);
        const doc = session.syncDocument(abs, text, sha256);
        session.notifySaved(doc);
      } catch {
        // the file is gone or unreadable now: the next call on it reports that
      }
    }
  }
}
