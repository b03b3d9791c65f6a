/**
 * Which changes on disk a server is known to follow (SPEC §5.3 "changes nobody vouches
 * for"): the rule is inverted — a change counts as followed only when the bridge can say
 * how the server learns of it: it restarts the server (`restart_on`), has it reload its
 * configuration (`reload_on`), or — for a file of the server's own languages — sends it as
 * an event a registered watcher asked for or as a document; or the server is shown to
 * follow it (`follows`, each preset entry backed by a test). A watcher matching some other
 * file is no proof: pyright watches `**` and still answers from the old base config. Files the server writes itself
 * (`own_files`) and the bridge's own files are no change. Everything else is *unproven*:
 * the session restarts before its next answer, or every answer says so (`unproven`).
 * Pure: a table test decides every case.
 */

export type Verdict =
  /** no change to the server: its own files, the bridge's log and apply temp files */
  | "ignored"
  /** `restart_on`: a fresh server answers */
  | "restart"
  /** `reload_on`: the server reloads its configuration */
  | "reload"
  /** a file of its languages a registered watcher asked for: sent as an event */
  | "event"
  /** a file the bridge sends: an open document, or one of its languages opened for it */
  | "document"
  /** shown to be followed by the server itself (`follows`) */
  | "follows"
  /** nothing vouches for it */
  | "unproven";

/** What is known of one change, for one session. */
export interface ChangeFacts {
  /** matches `own_files`, or is the bridge's own (log file, apply temp file) */
  own: boolean;
  restartOn: boolean;
  reloadOn: boolean;
  /** a file of the server's languages (its extensions, names, `#!` lines) */
  language: boolean;
  /** a watcher the server registered matches it, and it was sent as an event */
  watched: boolean;
  /** an open document of the session (its text is followed by didChange/didClose) */
  open: boolean;
  /** opened for the server in this delivery (`open_changed_files`) */
  opened: boolean;
  /** matches `follows` */
  follows: boolean;
}

/** The verdict on one change, first match wins. */
export function verdictOf(f: ChangeFacts): Verdict {
  if (f.own) return "ignored";
  if (f.restartOn) return "restart";
  if (f.reloadOn) return "reload";
  if (f.follows) return "follows";
  if (f.language && f.watched) return "event";
  if (f.open || f.opened) return "document";
  return "unproven";
}

/** Names the apply gives its temp files and second names beside a target (SPEC §7.4). */
const APPLY_SIDE_FILE = /^\..*\.theodolite-[0-9a-f]{16}\.(tmp|old)$/;

/** Is `name` (a file name, no directory) one of the applier's own side files? */
export function isApplySideFile(name: string): boolean {
  return APPLY_SIDE_FILE.test(name);
}
