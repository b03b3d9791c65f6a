/**
 * A settle rule's decisions as a table (src/session/settle/, SPEC §6): each rule's test
 * gives the expected decision for every situation named here, and `ruleTable` checks the
 * rule's pure methods against it, row by row.
 */
import { describe, expect, test } from "bun:test";
import type { Role } from "../../src/config/types.ts";
import type {
  FileSettle,
  Published,
  Refresh,
  SettleRule,
  Synced,
} from "../../src/session/settle/rule.ts";

/** The synced document every row is about: version 3, sent after publish number 10. */
export const SYNCED: Synced = { uri: "file:///w/a.py", version: 3, syncSeq: 10 };

/** What the store holds for the document, and whether a versionless publish must not count. */
const PUBLISHES: Record<string, { entry: Published | undefined; exact: boolean }> = {
  "no publish yet": { entry: undefined, exact: false },
  "before the sync, the synced version": { entry: { seq: 9, version: 3 }, exact: false },
  "before the sync, an older version": { entry: { seq: 9, version: 2 }, exact: false },
  "before the sync, no version": { entry: { seq: 9, version: undefined }, exact: false },
  "after the sync, the synced version": { entry: { seq: 11, version: 3 }, exact: false },
  "after the sync, a newer version": { entry: { seq: 11, version: 4 }, exact: false },
  "after the sync, an older version": { entry: { seq: 11, version: 2 }, exact: false },
  "after the sync, no version": { entry: { seq: 11, version: undefined }, exact: false },
  "after the sync, no version, exact (a preview)": {
    entry: { seq: 11, version: undefined },
    exact: true,
  },
};

type Loaded = ReturnType<SettleRule["loaded"]>;
type PushTable = { [situation in keyof typeof PUBLISHES]: boolean };

export interface RuleTable {
  /** after a sync: nothing, quiescence, or a push judged per situation */
  afterSync: null | { quiescence: string } | { push: string; pushed: PushTable };
  /** how a file's answer is made, where the server offers pull and where it does not */
  file: { pulled: FileSettle; unpulled: FileSettle };
  runs: SettleRule["runs"];
  /** "pulled|unpulled role watching|unwatched" → refresh */
  refresh: Record<string, Refresh>;
  perVersion: { pulled: boolean; unpulled: boolean };
  /** documents loaded for an edit, once the server published for any and before */
  loaded: { published: Loaded; unpublished: Loaded };
  workspaceQuiescence: boolean;
  skipsUnpublished: { pulled: boolean; unpulled: boolean };
  previewPublishes: boolean;
}

/** Any publish after the sync, and only one after it, counts (settle/rule.ts `anyPublish`). */
export const AFTER_ANY_PUBLISH: RuleTable["afterSync"] = {
  push: "publishDiagnostics for file:///w/a.py",
  pushed: {
    "no publish yet": false,
    "before the sync, the synced version": false,
    "before the sync, an older version": false,
    "before the sync, no version": false,
    "after the sync, the synced version": true,
    "after the sync, a newer version": true,
    "after the sync, an older version": true,
    "after the sync, no version": true,
    "after the sync, no version, exact (a preview)": true,
  },
};

const ROLES: Role[] = ["diagnostics", "semantics"];

/**
 * The refresh of most rules: a pulled server's document stays; a diagnostics call reopens
 * it; another call reopens it only for a server without file watchers (SPEC §5.3).
 */
const REOPEN_REFRESH: Record<string, Refresh> = {
  "pulled diagnostics watching": "none",
  "pulled diagnostics unwatched": "none",
  "pulled semantics watching": "none",
  "pulled semantics unwatched": "none",
  "unpulled diagnostics watching": "reopen",
  "unpulled diagnostics unwatched": "reopen",
  "unpulled semantics watching": "none",
  "unpulled semantics unwatched": "reopen",
};

/**
 * The rows of a rule that adds nothing to the plain one (settle/rule.ts `PLAIN_RULE`),
 * written out here independently: a rule's table lists what differs.
 */
export const PLAIN_ROWS = {
  runs: "ended",
  refresh: REOPEN_REFRESH,
  perVersion: { pulled: false, unpulled: false },
  loaded: { published: "none", unpublished: "none" },
  workspaceQuiescence: false,
  skipsUnpublished: { pulled: false, unpulled: false },
  previewPublishes: true,
} as const satisfies Omit<RuleTable, "afterSync" | "file">;

export function ruleTable(rule: SettleRule, table: RuleTable): void {
  describe(`settle rule ${rule.name} (SPEC §6)`, () => {
    test("after a sync", () => {
      const want = table.afterSync;
      const got = rule.afterSync(SYNCED, false);
      if (want === null) return expect(got).toBeNull();
      if ("quiescence" in want)
        return expect(got).toEqual({ on: "quiescence", what: want.quiescence });
      expect(got?.on).toBe("push");
      expect(got?.what).toBe(want.push);
      const verdicts: Record<string, boolean> = {};
      for (const [situation, { entry, exact }] of Object.entries(PUBLISHES)) {
        const wait = rule.afterSync(SYNCED, exact);
        verdicts[situation] = wait?.on === "push" && wait.pushed(entry);
      }
      expect(verdicts).toEqual(want.pushed);
    });

    test("a file's answer, the runs, the workspace and the preview", () => {
      expect({ pulled: rule.file(true), unpulled: rule.file(false) }).toEqual(table.file);
      expect(rule.runs).toBe(table.runs);
      const both = (f: (pulled: boolean) => boolean) => ({ pulled: f(true), unpulled: f(false) });
      expect(both(rule.perVersion)).toEqual(table.perVersion);
      expect(both(rule.skipsUnpublished)).toEqual(table.skipsUnpublished);
      expect({ published: rule.loaded(true), unpublished: rule.loaded(false) }).toEqual(
        table.loaded,
      );
      expect(rule.workspaceQuiescence).toBe(table.workspaceQuiescence);
      expect(rule.previewPublishes).toBe(table.previewPublishes);
    });

    test("how a call's document is refreshed", () => {
      const got: Record<string, Refresh> = {};
      for (const pulled of [true, false])
        for (const role of ROLES)
          for (const watching of [true, false]) {
            const key = `${pulled ? "pulled" : "unpulled"} ${role} ${watching ? "watching" : "unwatched"}`;
            got[key] = rule.refresh(pulled, role, watching);
          }
      expect(got).toEqual(table.refresh);
    });
  });
}
