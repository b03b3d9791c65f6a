/**
 * The inverted rule (SPEC §5.3): a change is followed only when the bridge can say how the
 * server learns of it; every other change is unproven. One row per case, first match wins.
 */
import { describe, expect, test } from "bun:test";
import {
  type ChangeFacts,
  isApplySideFile,
  type Verdict,
  verdictOf,
} from "../../../src/session/change-rule.ts";

const none: ChangeFacts = {
  own: false,
  restartOn: false,
  reloadOn: false,
  watched: false,
  open: false,
  opened: false,
  follows: false,
};

describe("verdictOf", () => {
  const rows: [string, Partial<ChangeFacts>, Verdict][] = [
    ["nothing vouches for it (README.md for clangd, a base config for pyright)", {}, "unproven"],
    ["the server's own cache", { own: true, restartOn: true, watched: true }, "ignored"],
    [
      "restart_on wins over an event (rust-analyzer's Cargo.toml)",
      { restartOn: true, watched: true, follows: true },
      "restart",
    ],
    [
      "restart_on wins over an open document (a header clangd has open)",
      { restartOn: true, open: true },
      "restart",
    ],
    ["reload_on (a package installed for pyright)", { reloadOn: true, watched: true }, "reload"],
    ["an open document's change is sent as text", { open: true }, "document"],
    ["opened for the server (open_changed_files)", { opened: true }, "document"],
    [
      "an event for a file the server is shown to follow by its events",
      { watched: true, follows: true },
      "event",
    ],
    [
      "an event alone is no proof (pyright's `**`: a new file on a timer, a base config)",
      { watched: true },
      "unproven",
    ],
    [
      "follows without an event sent (no watcher registered yet) is no proof",
      { follows: true },
      "unproven",
    ],
  ];
  for (const [label, facts, verdict] of rows) {
    test(label, () => expect(verdictOf({ ...none, ...facts })).toBe(verdict));
  }
});

describe("isApplySideFile", () => {
  test("the applier's temp files and second names", () => {
    expect(isApplySideFile(".main.c.theodolite-0123456789abcdef.tmp")).toBe(true);
    expect(isApplySideFile(".main.c.theodolite-0123456789abcdef.old")).toBe(true);
  });
  test("anything else is a file like any other", () => {
    expect(isApplySideFile("main.c")).toBe(false);
    expect(isApplySideFile(".main.c.theodolite-xyz.tmp")).toBe(false);
    expect(isApplySideFile("main.c.theodolite-0123456789abcdef.tmp")).toBe(false);
  });
});
