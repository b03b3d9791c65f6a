/**
 * Turning a listed code action's edit into a stored handle (SPEC §7.3): the
 * flattened edit and the SHA-256 of every target at listing time stay in the
 * bridge. Actions whose edit cannot be applied by the applier (resource
 * operations, non-file targets, unreadable files) get no handle.
 */
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { BridgeContext } from "../bridge.ts";
import type { PlannedFileEdit } from "../gate/handles.ts";
import { flattenWorkspaceEdit } from "../normalize/workspace-edit.ts";
import type { Session } from "../session/session.ts";
import { readTextFile } from "../workspace/files.ts";
import { uriToPath } from "../workspace/uri.ts";

export interface EditTargets {
  files: PlannedFileEdit[];
  targets: { abs: string; sha256: string }[];
}

/** Flatten and hash; throws ResourceOperationRejected / EditInvalid from the flattener. */
export function editTargets(edit: WorkspaceEdit, maxFileBytes: number): EditTargets | undefined {
  const files: PlannedFileEdit[] = [];
  const targets: { abs: string; sha256: string }[] = [];
  for (const f of flattenWorkspaceEdit(edit)) {
    const abs = uriToPath(f.uri);
    if (abs === null) return undefined;
    files.push({ abs, edits: f.edits.map((e) => ({ range: e.range, newText: e.newText })) });
    targets.push({ abs, sha256: readTextFile(abs, maxFileBytes).sha256 });
  }
  return { files, targets };
}

export function planHandle(
  bridge: BridgeContext,
  session: Session,
  title: string,
  edit: WorkspaceEdit,
): string | undefined {
  let planned: EditTargets | undefined;
  try {
    planned = editTargets(edit, bridge.config.bridge.max_file_bytes);
  } catch {
    return undefined;
  }
  if (!planned || planned.files.length === 0) return undefined;
  return bridge.handles.issue({
    sessionKey: session.key,
    sessionEpoch: session.epoch,
    title,
    encoding: session.encoding,
    files: planned.files,
    targets: planned.targets,
  });
}
