/**
 * The applier's typed errors (SPEC §4.6, §7.4), built in one place: what a refused,
 * drifted or failed apply says, and what `details` carry.
 */
import { BridgeError } from "../errors.ts";

/** An edit set aimed at something that is no regular file inside the workspace. */
export function targetInvalid(file: string, reason: string): BridgeError {
  return new BridgeError("EditInvalid", `edit set rejected: ${file}: ${reason}`, {
    hint: "nothing was written; edits may only change existing regular UTF-8 files inside the workspace",
    details: { file, index: null, reason },
  });
}

/** A target inside a version-control system's own data (vcs.ts): never written. */
export function vcsTarget(file: string, dir: string): BridgeError {
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: ${file}: it lies in ${dir}, a version-control system's own data`,
    {
      hint: "nothing was written; no apply writes into .git, .hg, .svn, .jj or .bzr (a hook there runs on the next commit); change such files by hand",
      details: { file, index: null, reason: `inside ${dir}` },
    },
  );
}

/** A target that is no file of the server's languages (SPEC §7.4). */
export function unservedTarget(file: string): BridgeError {
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: ${file}: it is no file of the server's languages`,
    {
      hint: "nothing was written; an apply writes only the sources the server serves (a server that edits a script, a workflow or a configuration file is not followed); change such files by hand",
      details: { file, index: null, reason: "not a file the server serves" },
    },
  );
}

/** Targets another writer changed: before the apply, or while it ran. */
export function driftedError(files: string[], when: string): BridgeError {
  return new BridgeError(
    "WorkspaceDrift",
    `${files.length} file(s) changed ${when}; nothing was written`,
    {
      hint: "request the code actions or the rename again on the current files",
      details: { files },
    },
  );
}

/** Targets that changed after their edit was computed (`hint`: what to compute again). */
export function changedSinceComputed(files: string[], hint: string): BridgeError {
  return new BridgeError(
    "WorkspaceDrift",
    `files changed since the edit was computed: ${files.join(", ")}`,
    {
      hint,
      details: { files },
    },
  );
}

/** A target the applier has no snapshot of: a bug of its caller. */
export function noSnapshot(abs: string): BridgeError {
  return new BridgeError("EditInvalid", `no snapshot for ${abs}`);
}

/** The private directory of the apply records, refused (journal.ts). */
export function stateDirRefused(dir: string, why: string): BridgeError {
  return new BridgeError(
    "ApplyFailed",
    `the apply's record directory ${dir} cannot be used (${why}); nothing was written`,
    {
      hint: "set bridge.state_dir to a directory only the bridge's user can enter",
      details: { failed: dir, error: why, restored: [], written: [] },
    },
  );
}

/** Targets the bridge may not replace without changing what they are; nothing written. */
export function refusedError(refused: { file: string; reason: string }[]): BridgeError {
  const first = refused[0] as { file: string; reason: string };
  return new BridgeError(
    "ApplyFailed",
    `${refused.length} file(s) may not be replaced (${first.file}: ${first.reason}); nothing was written`,
    {
      hint: "make the files replaceable for the bridge's user (mode, owner, one name, no chattr flag), or leave them alone",
      details: { failed: first.file, error: first.reason, restored: [], written: [], refused },
    },
  );
}

/** A temp file that could not be prepared; nothing written. */
export function prepareFailed(file: string, error: string): BridgeError {
  return new BridgeError(
    "ApplyFailed",
    `preparing ${file} failed (${error}); nothing was written`,
    {
      hint: "the workspace is unchanged; fix the cause (permissions, disk space, attributes the file system refuses) and apply again",
      details: { failed: file, error, restored: [], written: [] },
    },
  );
}

/** A swap that failed part-way, after every file already swapped was put back (or not). */
export function rolledBackError(
  what: string,
  failed: string,
  error: string,
  restored: string[],
  stillWritten: string[],
): BridgeError {
  const outcome =
    stillWritten.length === 0
      ? "every file written before it was restored"
      : `${stillWritten.length} file(s) could not be restored and hold the new content until the next start of a bridge on this workspace puts them back`;
  return new BridgeError("ApplyFailed", `${what} (${error}); ${outcome}`, {
    hint:
      stillWritten.length === 0
        ? "the workspace is unchanged; fix the cause (permissions, disk space) and apply again"
        : "inspect the files listed in details.written; they were changed and could not be put back",
    details: { failed, error, restored: restored.sort(), written: stillWritten.sort() },
  });
}

/** An errno error as `CODE: message`, anything else as its text. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== undefined && !err.message.startsWith(code)
      ? `${code}: ${err.message}`
      : err.message;
  }
  return String(err);
}

/** The bridge began to shut down before the apply swapped a file (SPEC §9.2). */
export function shutdownError(): BridgeError {
  return new BridgeError("Cancelled", "the bridge is shutting down; nothing was written", {
    hint: "nothing to do: the workspace is unchanged; apply again with a new bridge",
  });
}
