/**
 * Diagnostics settle by state (SPEC §6): after a file changed, the
 * answer waits for the publish that belongs to the synced content — by its
 * version, or (for servers whose pushes carry none) by the next publish —
 * so a stale set is never returned; without `file`, everything accumulated.
 * The fake publishes one diagnostic per "TODO", late on purpose.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { fakeBridge } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { diagnosticAt, diagnosticsFor, SNAPSHOT } from "../support/real-bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const TODO = { pattern: "TODO", message: "unfinished", severity: 2 };
const todo = (file: string, line: number, column: number) =>
  diagnosticAt("push", file, [line, column, line, column + 4], "warning", {
    message: "unfinished",
  });

describe("settling after a change", () => {
  const rules: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["version: the publish carrying the synced version", {}, {}],
    [
      "publish: the next publish, for pushes without a version",
      { publish_version: false },
      { diagnostics_settle: "publish" },
    ],
  ];
  for (const [label, scenario, extra] of rules) {
    test(label, async () => {
      const { ws, fake, bridge } = await fakeBridge(
        { "a.fake": "TODO one\n", "b.fake": "fine\n" },
        { publish_matches: TODO, publish_delay_ms: 300, ...scenario },
        extra,
      );
      // without versions nothing proves the publish the last one: the answer says so
      const UNVERSIONED =
        "the server's publishes carry no version and no end signal: a later publish may differ";
      const unprovenFor = (...files: string[]) =>
        scenario.publish_version === false
          ? { settled: false, unsettled: files.map((file) => ({ file, reason: UNVERSIONED })) }
          : {};
      const unproven = unprovenFor("a.fake");
      const first = await bridge.call("diagnostics", { file: "a.fake" });
      const one = diagnosticsFor(["a.fake"], [todo("a.fake", 1, 1)]);
      expect(first.structured).toEqual({ ...one, ...unproven });

      ws.write("a.fake", "x TODO TODO\n");
      const second = await bridge.call("diagnostics", { file: "a.fake" });
      const two = diagnosticsFor(["a.fake"], [todo("a.fake", 1, 3), todo("a.fake", 1, 8)]);
      expect(second.structured).toEqual({ ...two, ...unproven });
      const versions = fake
        .events("textDocument/publishDiagnostics", "out")
        .map((e) => (e.detail as { version: number | null }).version);
      if (scenario.publish_version === false) {
        // without versions, the answer comes from an opening (SPEC §5.3): the change
        // followed the disk, then the document was closed and opened afresh; the first
        // publish after the reopen settles the call (the change's own may still be due)
        expect(versions.length).toBeGreaterThanOrEqual(2);
        expect(versions.every((v) => v === null)).toBe(true);
        const opens = fake.events("textDocument/didOpen", "in").map((e) => e.detail);
        expect(opens).toEqual([
          { uri: ws.uri("a.fake"), version: 1 },
          { uri: ws.uri("a.fake"), version: 3 },
        ]);
      } else {
        expect(versions).toEqual([1, 2]);
      }

      ws.write("b.fake", "TODO\n");
      expect((await bridge.call("diagnostics", { file: "b.fake" })).structured.total).toBe(1);
      const all = await bridge.call("diagnostics", {});
      // the fake reports open files only and offers no workspace pull
      const items = [todo("a.fake", 1, 3), todo("a.fake", 1, 8), todo("b.fake", 1, 1)];
      expect(all.structured).toEqual({
        ...diagnosticsFor(["a.fake", "b.fake"], items, false),
        ...unprovenFor("a.fake", "b.fake"),
      });
    });
  }
});

describe("a change set: files, snapshot and since", () => {
  const ERR = { pattern: "ERR", message: "bad thing", severity: 1 };

  const err = (file: string, line: number, column: number) =>
    diagnosticAt("push", file, [line, column, line, column + 3], "error", { message: "bad thing" });

  async function start(files: Record<string, string>) {
    const { ws, bridge } = await fakeBridge(files, { publish_matches: ERR });
    return { ws, bridge };
  }

  test("files: each settled, all listed; since: a line above an error and one new error is 1 added, 0 removed", async () => {
    const { ws, bridge } = await start({ "a.fake": "x ERR\n", "b.fake": "fine\n" });
    const first = await bridge.call("diagnostics", { files: ["b.fake", "a.fake", "./a.fake"] });
    expect(first.structured).toEqual(diagnosticsFor(["a.fake", "b.fake"], [err("a.fake", 1, 3)]));

    ws.write("a.fake", "// a line above\nx ERR\n");
    ws.write("b.fake", "fine\nnew ERR here\n");
    const diff = await bridge.call("diagnostics", {
      files: ["a.fake", "b.fake"],
      since: first.structured.snapshot,
    });
    expect(diff.structured).toEqual({
      added: [err("b.fake", 2, 5)],
      removed: [],
      unchanged: 1,
      files: ["a.fake", "b.fake"],
      snapshot: SNAPSHOT,
    });
    expect(diff.structured.snapshot).not.toBe(first.structured.snapshot);

    // nothing changed since then; then the old error is fixed
    const same = await bridge.call("diagnostics", {
      files: ["a.fake", "b.fake"],
      since: diff.structured.snapshot,
    });
    expect(same.structured).toMatchObject({ added: [], removed: [], unchanged: 2 });
    expect(same.structured.snapshot).toBe(diff.structured.snapshot);
    ws.write("a.fake", "// a line above\nx ok\n");
    const fixed = await bridge.call("diagnostics", {
      files: ["a.fake"],
      since: diff.structured.snapshot,
    });
    // b.fake is not in this call: its error is neither removed nor counted
    expect(fixed.structured).toEqual({
      added: [],
      removed: [err("a.fake", 2, 3)],
      unchanged: 0,
      files: ["a.fake"],
      snapshot: SNAPSHOT,
    });
  });

  test("the snapshot is a digest of the result: the same in a fresh bridge", async () => {
    const files = { "a.fake": "ERR ERR\n" };
    const one = await start(files);
    const first = await one.bridge.call("diagnostics", { file: "a.fake" });
    const two = await start(files);
    const again = await two.bridge.call("diagnostics", { file: "a.fake" });
    expect(again.structured.snapshot).toBe(first.structured.snapshot);
    // but that bridge does not hold the first one's memory
    const unknown = await two.bridge.call("diagnostics", { file: "a.fake", since: "dnope" });
    expect(unknown.structured.code).toBe("SnapshotUnknown");
    expect(String(unknown.structured.hint)).toContain("without `since`");
  });

  test("bad combinations are InvalidArgument", async () => {
    const { bridge } = await start({ "a.fake": "x\n" });
    const snap = (await bridge.call("diagnostics", { file: "a.fake" })).structured.snapshot;
    for (const args of [
      { file: "a.fake", files: ["a.fake"] },
      { files: [] },
      { files: Array.from({ length: 65 }, () => "a.fake") },
      { file: "a.fake", since: snap, limit: 5 },
    ]) {
      const r = await bridge.call("diagnostics", args);
      expect(r.structured.code).toBe("InvalidArgument");
    }
  });
});

describe('"progress": settled by the end of a check run (bacon-ls)', () => {
  test("after a change, only a run begun after it settles; the change is followed by didSave", async () => {
    // like bacon-ls: a check run on start, another on each save, and publishes that come
    // while a run is active (here 300 ms after each sync; the runs outlast them)
    const scenario = {
      capabilities: {
        textDocumentSync: { openClose: true, change: 1, save: true },
        hoverProvider: true,
      },
      publish_matches: TODO,
      publish_delay_ms: 300,
      progress: [
        { token: "start", title: "checking", end_after_ms: 1500 },
        { token: "save", title: "checking", begin_on: "textDocument/didSave", end_after_ms: 800 },
      ],
    };
    const { ws, fake, bridge } = await fakeBridge({ "a.fake": "TODO one\n" }, scenario, {
      diagnostics_settle: "progress",
      diagnostics_runs: { progress: ["^checking$"] },
    });
    const first = await bridge.call("diagnostics", { file: "a.fake" });
    expect(first.structured).toEqual(diagnosticsFor(["a.fake"], [todo("a.fake", 1, 1)]));

    ws.write("a.fake", "x TODO TODO\n");
    // the start run has ended: without the mark this answered the stale set at once
    const second = await bridge.call("diagnostics", { file: "a.fake" });
    expect(second.structured).toEqual(
      diagnosticsFor(["a.fake"], [todo("a.fake", 1, 3), todo("a.fake", 1, 8)]),
    );
    const syncs = fake
      .state()
      .events.filter((e) => e.dir === "in" && e.method.startsWith("textDocument/did"))
      .map((e) => e.method);
    expect(syncs).toEqual([
      "textDocument/didOpen",
      "textDocument/didChange",
      "textDocument/didSave",
    ]);
  });
});

describe("workspace-wide, a check-run server that also answers pulls (rust-analyzer)", () => {
  test("a file the run reported on but nobody pulled is pulled: its own diagnostics are listed", async () => {
    const { fake, bridge } = await fakeBridge(
      { "a.fake": "TODO a\n", "b.fake": "TODO b\n" },
      {
        capabilities: {
          textDocumentSync: { openClose: true, change: 1, save: true },
          hoverProvider: true,
          diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false },
        },
        responses: { "textDocument/hover": { contents: "h" } },
        publish_matches: TODO,
        pull_diagnostics: [
          { message: "own", severity: 1, line: 0, character: 0, end_character: 4 },
        ],
        progress: [{ token: "start", title: "checking", end_after_ms: 100 }],
      },
      { diagnostics_settle: "progress", diagnostics_runs: { progress: ["^checking$"] } },
    );
    // b.fake is opened (a hover) and pushed for, never pulled
    expect((await bridge.call("hover", { file: "b.fake", line: 1, column: 1 })).isError).toBe(
      false,
    );
    await fake.until(
      (s) =>
        s.events.find((e) => e.dir === "out" && e.method === "textDocument/publishDiagnostics"),
      "the push for b.fake",
      10_000,
    );
    const all = await bridge.call("diagnostics", {});
    const items = all.structured.diagnostics as {
      file: string;
      message: string;
      channels: string[];
    }[];
    expect(items.filter((d) => d.file === "b.fake").map((d) => [d.message, d.channels])).toEqual([
      ["own", ["pull"]],
      ["unfinished", ["push"]],
    ]);
    expect(fake.requests("textDocument/diagnostic").length).toBeGreaterThan(0);
  });
});

describe("a server that publishes a run's results after answering a barrier (rust-analyzer)", () => {
  // rust-analyzer sends publishes from its task pool: the main loop's answer to the bridge's
  // barrier can overtake them. Here a run's publishes come 1.5 s after its end, or before
  // the answer to a pool request (fake/pool).
  // crossed: a run's publishes of the file also cross (newest first, the last holding only
  // its first item); republish: the server publishes a closed file again, and the key is on
  async function editAndAsk(
    poolBarrier: boolean,
    rounds: number,
    crossed?: { republish: boolean },
  ): Promise<number[]> {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "TODO one\n" },
      {
        capabilities: {
          textDocumentSync: { openClose: true, change: 1, save: true },
          hoverProvider: true,
        },
        publish_matches: TODO,
        publish_pool: { method: "fake/pool", delay_ms: 1500, crossed: crossed !== undefined },
        republish_on_close: crossed !== undefined,
        progress: [
          { token: "start", title: "checking", end_after_ms: 100 },
          { token: "save", title: "checking", begin_on: "textDocument/didSave", end_after_ms: 200 },
        ],
      },
      {
        diagnostics_settle: "progress",
        diagnostics_runs: {
          progress: ["^checking$"],
          ...(poolBarrier
            ? { barrier: { method: "fake/pool", republish: crossed?.republish === true } }
            : {}),
        },
      },
    );
    const totals: number[] = [];
    await bridge.call("diagnostics", { file: "a.fake" });
    // the opening's publish is in before the first edit (it comes 1.5 s late without a pool request)
    await fake.until(
      (s) =>
        s.events.find((e) => e.dir === "out" && e.method === "textDocument/publishDiagnostics"),
      "the opening's publish",
      10_000,
    );
    for (let n = 1; n <= rounds; n++) {
      ws.write("a.fake", `${"TODO ".repeat(n + 1)}\n`);
      const r = await bridge.call("diagnostics", { file: "a.fake" });
      totals.push(r.structured.total as number);
    }
    return totals;
  }

  test("with a runs barrier every answer after an edit is the new one, five times", async () => {
    expect(await editAndAsk(true, 5)).toEqual([2, 3, 4, 5, 6]);
  });

  test("without it, the answer is the one before the edit (why the key exists)", async () => {
    expect(await editAndAsk(false, 1)).toEqual([1]);
  });

  // the pool's threads can send a run's publishes of one file out of order (SPEC §6)
  test("publishes that cross: with the barrier's republish the run's last result, five times", async () => {
    expect(await editAndAsk(true, 5, { republish: true })).toEqual([2, 3, 4, 5, 6]);
  });

  test("publishes that cross, without republish: the earlier one, last", async () => {
    expect(await editAndAsk(true, 2, { republish: false })).toEqual([1, 1]);
  });
});
