/**
 * What a server's required workspace file is refused for (SPEC §3.4), built in one place:
 * missing (`WorkspaceFileMissing`) or invalid (`WorkspaceFileInvalid`), with the fix the
 * server's preset gives. The session is not started: once the file is right, the next
 * call (or session_restart) starts it.
 */
import { BridgeError } from "../errors.ts";

/** A required file as its errors name it; `fix`: the requirement's own hint. */
export interface RequiredFile {
  workspace: string;
  server: string;
  /** the path looked at */
  file: string;
  fix: string;
}

function hintFor(f: RequiredFile): string {
  return `${f.fix}; then call again, or session_restart with server "${f.server}"`;
}

/** `reason`: why the file could not be opened. */
export function requiredFileMissing(f: RequiredFile, reason: string): BridgeError {
  return new BridgeError("WorkspaceFileMissing", `${f.server} needs ${f.file}, and there is none`, {
    hint: hintFor(f),
    details: { workspace: f.workspace, server: f.server, file: f.file, reason },
  });
}

/** `entry`: the index of the entry at fault, or null for the whole file. */
export function requiredFileInvalid(
  f: RequiredFile,
  reason: string,
  entry: number | null,
): BridgeError {
  return new BridgeError("WorkspaceFileInvalid", `${f.file}: ${reason}`, {
    hint: hintFor(f),
    details: { workspace: f.workspace, server: f.server, file: f.file, reason, entry },
  });
}
