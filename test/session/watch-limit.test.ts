/**
 * The watch bound told honestly, end to end with the fake server (SPEC §4.3, §5.2): with a
 * small `bridge.max_watches`, what is watched follows priority — the directories of open
 * documents first, also of one opened later — every directory left is counted in
 * session_status, and every read answer says `unwatched: n`; with everything watched the
 * field is absent. The order itself: test/unit/workspace/watch-order.test.ts.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { type FakeProbe, fakeBridge, sessionOf } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const ANSWERS = {
  "textDocument/hover": { contents: "hello" },
  "textDocument/definition": [],
  "workspace/symbol": [],
};

/** A server that registers `**` right after `initialized` (everything is of interest). */
const WATCHING = {
  responses: ANSWERS,
  server_requests: [
    {
      method: "client/registerCapability",
      params: {
        registrations: [
          {
            id: "w1",
            method: "workspace/didChangeWatchedFiles",
            registerOptions: { watchers: [{ globPattern: "**/*" }] },
          },
        ],
      },
      after_ms: 0,
    },
  ],
};

type Rec = { method?: string; params?: { changes?: { uri: string }[] } };

/** The paths of every watched-file event the fake received since `from`. */
function events(fake: FakeProbe, root: string, from: number): string[] {
  return (fake.records() as Rec[])
    .slice(from)
    .filter((m) => m.method === "workspace/didChangeWatchedFiles")
    .flatMap((m) => (m.params?.changes ?? []).map((c) => c.uri.replace(`file://${root}/`, "")));
}

/** twelve directories besides the root: a1..a8 (no sources), src, src/lib, deep, deep/doc */
const FILES = {
  "main.fake": "m\n",
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`a${i + 1}/notes.md`, "n"])),
  "src/lib/util.fake": "u\n",
  "deep/doc/page.fake": "p\n",
};

describe("past bridge.max_watches", () => {
  test("answers say unwatched; an opened document's directory gets watched; counts stay exact", async () => {
    const { ws, fake, bridge } = await fakeBridge(FILES, WATCHING, {}, { max_watches: 4 });
    const first = await bridge.call("hover", { file: "main.fake", line: 1, column: 1 });
    expect(first.isError).toBe(false);
    const watch = await waitForValue(
      async () => {
        const c = (await sessionOf(bridge, "w", "fake")).coherence as Record<string, unknown>;
        return (c.watchers as string[]).length === 1
          ? (c.watch as Record<string, unknown>)
          : undefined;
      },
      10_000,
      { what: "the watcher registration" },
    );
    // the root, then the directories holding .fake files and their ancestors, shallow first:
    // deep, src, deep/doc; a1..a8 and src/lib are left
    expect(watch).toMatchObject({
      watched_directories: 4,
      unwatched_directories: 9,
      unwatched_exact: true,
      unwatched_sample: ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"],
    });
    const hover = await bridge.call("hover", { file: "main.fake", line: 1, column: 1 });
    expect(hover.structured).toEqual({ text: "hello", range: null, unwatched: 9 });
    const symbols = await bridge.call("workspace_symbols", { query: "x" });
    expect(symbols.structured).toMatchObject({ symbols: [], total: 0, unwatched: 9 });

    // a change in an unwatched directory is not seen; after a document there is opened, it is
    let from = fake.records().length;
    ws.write("a7/notes.md", "changed");
    await bridge.call("definition", { file: "main.fake", line: 1, column: 1 });
    expect(events(fake, ws.root, from)).toEqual([]);
    ws.write("a7/page.fake", "p\n");
    const opened = await bridge.call("definition", { file: "a7/page.fake", line: 1, column: 1 });
    expect(opened.structured).toMatchObject({ locations: [], unwatched: 9 });
    from = fake.records().length;
    ws.write("a7/notes.md", "changed again");
    await bridge.call("hover", { file: "main.fake", line: 1, column: 1 });
    expect(events(fake, ws.root, from)).toEqual(["a7/notes.md"]);
    const after = (await sessionOf(bridge, "w", "fake")).coherence as { watch: unknown };
    // a7 and its parent (the root) now come first: the lowest-ranked watch made room
    expect(after.watch).toMatchObject({ watched_directories: 4, unwatched_directories: 9 });
    expect((after.watch as { unwatched_sample: string[] }).unwatched_sample).not.toContain("a7");
  });

  test("everything watched: no field in the answers", async () => {
    const { bridge } = await fakeBridge({ "main.fake": "m\n", "src/util.fake": "u\n" }, WATCHING);
    const hover = await bridge.call("hover", { file: "main.fake", line: 1, column: 1 });
    expect(hover.structured).toEqual({ text: "hello", range: null });
  });
});
