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
  language: false,
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
      "restart_on wins over a watcher (rust-analyzer's Cargo.toml)",
      { restartOn: true, watched: true },
      "restart",
    ],
    [
      "restart_on wins over an open document (a header clangd has open)",
      { restartOn: true, open: true },
      "restart",
    ],
    ["reload_on (a package installed for pyright)", { reloadOn: true, watched: true }, "reload"],
    [
      "a file of its languages a registered watcher asked for",
      { language: true, watched: true },
      "event",
    ],
    [
      "a watcher matching another file is no proof (pyright's `**`, a base config)",
      { watched: true },
      "unproven",
    ],
    ["an open document's change is sent", { open: true }, "document"],
    ["opened for the server (open_changed_files)", { language: true, opened: true }, "document"],
    [
      "a file of its languages nobody sent (no watcher, not opened)",
      { language: true },
      "unproven",
    ],
    ["shown followed by a test (follows)", { follows: true }, "follows"],
    ["follows never outranks a restart", { follows: true, restartOn: true }, "restart"],
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
