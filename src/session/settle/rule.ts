/**
 * A diagnostics settle rule (SPEC §6): when a file's diagnostics are the server's finished
 * answer for the synced content (the rules: rules.ts). Its decisions are pure; the waits
 * acting on them are in the session. `pulled`: the server offers document pull in this life.
 */
import type { Role } from "../../config/types.ts";

/**
 * How the call's document is brought up to the workspace: "reopen" — opened afresh when the
 * workspace changed around it; "fresh" — also when its own text changed since it was opened
 * (SPEC §6); "none" — left as it is.
 */
export type Refresh = "reopen" | "fresh" | "none";

/** A publish as the store holds it. */
export interface Published {
  seq: number;
  version: number | undefined;
}

/** A synced document: its version and the publish count when that version was sent. */
export interface Synced {
  uri: string;
  version: number;
  syncSeq: number;
}

/** What a synced document's diagnostics wait for; null: nothing. */
export type SyncWait =
  | { on: "push"; what: string; pushed(entry: Published | undefined): boolean }
  | { on: "quiescence"; what: string }
  | null;

/** How a file's own answer is made (`fileDiagnostics`). */
export interface FileSettle {
  /** tsserver's command, a document pull, or the pushes alone */
  ask: "tsserver" | "pull" | "push";
  /** the sync wait before the pull: a quiescent server answers pulls from its last load */
  waitFirst: boolean;
  /** the sync wait after it; a failure closes the document (SPEC §5.4) */
  waitAfter: boolean;
  /** why the answer is not proven finished, whatever arrives */
  unsettled?: string;
}

export interface SettleRule {
  readonly name: string;
  /** after a sync (`exact`: a publish without a version does not count, for a preview) */
  afterSync(doc: Synced, exact: boolean): SyncWait;
  file(pulled: boolean): FileSettle;
  /** the server's check runs, where it has some: ignored, or ended — and one completed too */
  readonly runs: "ignored" | "ended" | "completed";
  /** how a call's document is refreshed (catch-up.ts `documentRefresh`) */
  refresh(pulled: boolean, role: Role, watching: boolean): Refresh;
  /** the server publishes per version, unpulled: a call after a change awaits those publishes */
  perVersion(pulled: boolean): boolean;
  /** documents loaded for an edit (SPEC §7.3): the first's sync wait, each one's, or none */
  loaded(published: boolean): "first" | "each" | "none";
  /** a workspace-wide answer waits for quiescence after the runs */
  readonly workspaceQuiescence: boolean;
  /** a document never published for is reported as such rather than waited for */
  skipsUnpublished(pulled: boolean): boolean;
  /** a preview reports the files published for meanwhile that are not open (SPEC §6.2) */
  readonly previewPublishes: boolean;
}

/** Why a `publish`-rule answer cannot be proven complete (SPEC §6). */
export const UNVERSIONED =
  "the server's publishes carry no version and no end signal: a later publish may differ";

/**
 * What a rule decides unless it says otherwise: runs answer once ended, a diagnostics
 * call reopens an unpulled document, nothing more is awaited. A rule lists what differs.
 */
export const PLAIN_RULE = {
  runs: "ended",
  refresh: refreshReopen,
  perVersion: () => false,
  loaded: () => "none",
  workspaceQuiescence: false,
  skipsUnpublished: () => false,
  previewPublishes: true,
} as const satisfies Omit<SettleRule, "name" | "afterSync" | "file">;

/** Any publish after the sync (SPEC §6 `publish`). */
export function anyPublish(doc: Synced): SyncWait {
  return {
    on: "push",
    what: `publishDiagnostics for ${doc.uri}`,
    pushed: (entry) => entry !== undefined && entry.seq > doc.syncSeq,
  };
}

/** A pulled server answers from its own state; else a diagnostics call reopens (SPEC §5.3). */
export function refreshReopen(pulled: boolean, role: Role, watching: boolean): Refresh {
  if (pulled) return "none";
  if (role === "diagnostics") return "reopen";
  // for other calls, a server told of every change through its watchers knows already
  return watching ? "none" : "reopen";
}

/** The answer is pulled where the server offers it, else the pushes alone. */
export function pullOrPush(pulled: boolean): FileSettle["ask"] {
  return pulled ? "pull" : "push";
}
