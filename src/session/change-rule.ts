/**
 * Which changes on disk a server is known to follow (SPEC §5.3), pure: only those the bridge
 * can say how it learns of (a restart, a reload, a document, an event it is shown to follow:
 * an event alone is no proof). Everything else is *unproven*.
 */
export type Verdict =
  /** no change to the server: its own files, the bridge's log and apply temp files */
  | "ignored"
  /** `restart_on`: a fresh server answers */
  | "restart"
  /** `reload_on`: the server reloads its configuration */
  | "reload"
  /** sent as an event a registered watcher asked for, and shown followed (`follows`) */
  | "event"
  /** a file the bridge sends: an open document, or one of its languages opened for it */
  | "document"
  /** nothing vouches for it */
  | "unproven";

/** What is known of one change, for one session. */
export interface ChangeFacts {
  /** matches `own_files`, or is the bridge's own (log file, apply temp file) */
  own: boolean;
  restartOn: boolean;
  reloadOn: boolean;
  /** a watcher the server registered matches it, and it was sent as an event */
  watched: boolean;
  /** an open document of the session (its text is followed by didChange/didClose) */
  open: boolean;
  /** opened for the server in this delivery (`open_changed_files`) */
  opened: boolean;
  /** matches `follows`: the server acts on its events in order (a test shows it) */
  follows: boolean;
}

/** The verdict on one change, first match wins. */
export function verdictOf(f: ChangeFacts): Verdict {
  if (f.own) return "ignored";
  if (f.restartOn) return "restart";
  if (f.reloadOn) return "reload";
  if (f.open || f.opened) return "document";
  if (f.watched && f.follows) return "event";
  return "unproven";
}

/** Names the apply gives its temp files and second names beside a target (SPEC §7.4). */
const APPLY_SIDE_FILE = /^\..*\.theodolite-[0-9a-f]{16}\.(tmp|old)$/;

/** Is `name` (a file name, no directory) one of the applier's own side files? */
export function isApplySideFile(name: string): boolean {
  return APPLY_SIDE_FILE.test(name);
}
