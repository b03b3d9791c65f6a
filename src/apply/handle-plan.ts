/**
 * Turning a listed code action's edit into a stored handle (SPEC §7.3): the
 * flattened edit and the SHA-256 of every target at listing time stay in the
 * bridge. Actions whose edit cannot be applied by the applier (resource
 * operations, non-file targets, unreadable files) get no handle.
 */
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { HandleStore, HandleVouch, PlannedFileEdit } from "../gate/handles.ts";
import { nonFileTarget } from "../normalize/edit-errors.ts";
import { type FileEdits, flattenWorkspaceEdit } from "../normalize/workspace-edit.ts";
import type { LineModel } from "../text/line-model.ts";
import type { PositionEncoding } from "../text/positions.ts";
import { displayPath, type WorkspaceRoot } from "../workspace/paths.ts";
import { uriToPath } from "../workspace/uri.ts";
import { readSnapshots, type Snapshots } from "./apply-edits.ts";
import { targetInvalid, unservedTarget, vcsTarget } from "./apply-errors.ts";
import { versionControlPart } from "./vcs.ts";

export interface EditTargets {
  files: PlannedFileEdit[];
  targets: { abs: string; sha256: string }[];
  /** the text each target held when hashed */
  snapshots: Snapshots;
}

/**
 * Targets of flattened file edits, read and hashed once. Server-named targets are
 * untrusted (SPEC §8.1): one that is no file, outside the workspace, not a regular file,
 * too large, not UTF-8, inside version-control internals (vcs.ts) or no file of the
 * server's languages (`serves`, by its real path) makes the edit set `EditInvalid` (SPEC §7.4).
 */
export function editTargets(
  ws: WorkspaceRoot,
  fileEdits: FileEdits[],
  maxFileBytes: number,
  serves: (rel: string) => boolean,
): EditTargets {
  const files: PlannedFileEdit[] = fileEdits.map((f) => {
    const abs = uriToPath(f.uri);
    if (abs === null) throw nonFileTarget(f.uri);
    return { abs, edits: f.edits.map((e) => ({ range: e.range, newText: e.newText })) };
  });
  const snapshots = readSnapshots(
    ws,
    files.map((f) => f.abs),
    maxFileBytes,
    (abs, err) => {
      throw targetInvalid(displayPath(ws, abs), `${err.code}: ${err.message}`);
    },
  );
  for (const [abs, { rel }] of snapshots) {
    const vcs = versionControlPart(rel);
    if (vcs !== undefined) throw vcsTarget(displayPath(ws, abs), vcs);
    if (!serves(rel)) throw unservedTarget(displayPath(ws, abs));
  }
  const targets = [...snapshots].map(([abs, { sha256 }]) => ({ abs, sha256 }));
  return { files, targets, snapshots };
}

/** The session life a handle belongs to (SPEC §7.3): a handle from another is foreign. */
export interface HandleOrigin {
  readonly key: string;
  readonly life: { readonly epoch: number };
  /** the position encoding of the server's ranges */
  readonly process: { readonly encoding: PositionEncoding };
  /** the models its code actions' edits may count in (SPEC §5, text/line-rule.ts) */
  linesFor(message: "code_action"): readonly LineModel[];
  /** the workspace its edits must stay in */
  readonly workspace: WorkspaceRoot;
  /** whether a workspace-relative file is one of its languages': the only files it edits */
  serves(rel: string): boolean;
}

export function planHandle(
  handles: Pick<HandleStore, "issue">,
  session: HandleOrigin,
  title: string,
  edit: WorkspaceEdit,
  maxFileBytes: number,
  vouch: HandleVouch,
): string | undefined {
  let planned: EditTargets;
  try {
    planned = editTargets(session.workspace, flattenWorkspaceEdit(edit), maxFileBytes, (rel) =>
      session.serves(rel),
    );
  } catch {
    return undefined;
  }
  if (planned.files.length === 0) return undefined;
  return handles.issue({
    sessionKey: session.key,
    sessionEpoch: session.life.epoch,
    title,
    encoding: session.process.encoding,
    lines: session.linesFor("code_action"),
    files: planned.files,
    targets: planned.targets,
    vouch,
  });
}
