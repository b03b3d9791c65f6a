/**
 * Changes nobody vouches for (SPEC §5.3), through the compiled bridge with a fake server that
 * reads what these tests change (`reads`) and follows nothing (`follows = []`): a change the bridge cannot say how the
 * server learns of restarts the session before the next answer (`unproven = "restart"`,
 * the default, for a hand-written configuration too), or marks every answer until the next
 * start (`"mark"`); the server's own files, files it never reads and the bridge's own are no
 * change at all. A restart narrows no workspace-wide answer (SPEC §6): the files the server
 * reported on before it are covered and waited for, as they would have been without it.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, fakeBridge, sessionOf, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };
// the fake publishes an empty set for every synced version: diagnostics settle at once
const SCENARIO = { responses: HOVER, publish_on_sync: [] };
const AT = { file: "a.fake", line: 1, column: 1 };

async function restarts(bridge: Parameters<typeof sessionOf>[0]) {
  const s = await sessionOf(bridge, "w", "fake");
  return s.restarts as { count: number; last_reason: string | null };
}

describe("unproven = restart (the default)", () => {
  test("a file nothing vouches for restarts the session before the answer; the server's own, a file it never reads and the applier's are no change", async () => {
    const { ws, bridge } = await fakeBridge(
      { "a.fake": "a\n", "docs/README.md": "r\n", "src/b.py": "b\n" },
      SCENARIO,
      { reads: ["**/*.{fake,md,txt}", ".cache/**"], own_files: [".cache/**"] },
    );
    expect((await bridge.call("hover", AT)).isError).toBe(false);
    const epoch = (await sessionOf(bridge, "w", "fake")).epoch as number;

    ws.write(".cache/index/a.idx", "its own cache");
    ws.write("src/b.py", "never read by it");
    ws.write(".a.fake.theodolite-0123456789abcdef.tmp", "the applier's");
    expect((await bridge.call("hover", AT)).isError).toBe(false);
    expect(await restarts(bridge)).toEqual({ count: 0, last_reason: null });

    ws.write("docs/README.md", "changed");
    const r = await bridge.call("hover", AT);
    expect(r.isError).toBe(false);
    expect(await restarts(bridge)).toEqual({
      count: 1,
      last_reason: "docs/README.md changed, which the server is not known to follow",
    });
    expect((await sessionOf(bridge, "w", "fake")).epoch).toBe(epoch + 1);
    // diagnostics name the restart in the answer
    ws.write(".gen/api.txt", "a hidden directory is watched too");
    const d = await bridge.call("diagnostics", { file: "a.fake" });
    expect(d.structured.restarted).toEqual([
      "fake: .gen/api.txt created, which the server is not known to follow",
    ]);
  });
});

describe("unproven = mark", () => {
  test("every answer says settled: false and names the files, until the session starts again", async () => {
    const { ws, bridge } = await fakeBridge({ "a.fake": "a\n" }, SCENARIO, {
      reads: ["**"],
      unproven: "mark",
    });
    const clean = await bridge.call("hover", AT);
    expect(clean.structured.settled).toBeUndefined();
    for (let i = 0; i < 10; i++) ws.write(`data/${i}.json`, "{}");
    const h = await bridge.call("hover", AT);
    const names = Array.from({ length: 10 }, (_, i) => `data/${i}.json`)
      .sort()
      .slice(0, 8);
    expect(h.structured.settled).toBe(false);
    expect((h.structured.unsettled as { file: string }[]).map((u) => u.file)).toEqual(names);
    expect(h.structured.unsettled_total).toBe(10);
    const d = await bridge.call("diagnostics", { file: "a.fake" });
    expect(d.structured.settled).toBe(false);
    expect((d.structured.unsettled as { file: string }[]).map((u) => u.file)).toEqual(names);
    expect(await restarts(bridge)).toEqual({ count: 0, last_reason: null });
    await bridge.call("session_restart", { workspace: "w", server: "fake" });
    expect((await bridge.call("hover", AT)).structured.settled).toBeUndefined();
  });
});

describe("a data-file server", () => {
  test("never reads the other servers' sources: their changes are no change to it; a data file's is", async () => {
    const ws = workspace({ "a.fake": "a\n", "conf.data": "{}\n" });
    const code = new FakeProbe("fake");
    const data = new FakeProbe("data");
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        code.server(SCENARIO),
        // it reads every file but for the rule under test
        data.server(SCENARIO, {
          languages: ["data"],
          extensions: { data: "data" },
          data_files: true,
          reads: ["**"],
        }),
      ],
    });
    const onData = { file: "conf.data", line: 1, column: 1 };
    expect((await bridge.call("hover", onData)).isError).toBe(false);
    ws.write("a.fake", "edited");
    ws.write("src/b.fake", "new");
    expect((await bridge.call("hover", onData)).isError).toBe(false);
    const restartsOf = async () =>
      ((await sessionOf(bridge, "w", "data")).restarts as { count: number }).count;
    expect(await restartsOf()).toBe(0);
    ws.write("schema.json", "{}");
    expect((await bridge.call("hover", onData)).isError).toBe(false);
    expect(await restartsOf()).toBe(1);
  });
});

describe("a workspace-wide answer across a restart", () => {
  // late on purpose: the new server's publishes come after the answer would have been read
  const LATE = {
    publish_matches: { pattern: "TODO", message: "unfinished" },
    publish_delay_ms: 300,
  };
  const READS = { reads: ["**/*.{fake,md}"] };
  const NOT_PUBLISHED =
    "the server has not published for this open document yet; ask for it with `file`";

  test("covers the files reported on before it, each settled by the new server", async () => {
    const { ws, bridge } = await fakeBridge(
      { "a.fake": "TODO one\n", "b.fake": "fine\n" },
      LATE,
      READS,
    );
    const before = await bridge.call("diagnostics", { files: ["a.fake", "b.fake"] });
    expect(before.structured).toMatchObject({ total: 1, files: ["a.fake", "b.fake"] });

    ws.write("docs/README.md", "changed");
    ws.write("b.fake", "TODO two\n");
    const all = await bridge.call("diagnostics", {});
    const { snapshot: _s, diagnostics, ...rest } = all.structured;
    expect(rest).toEqual({
      total: 2,
      files: ["a.fake", "b.fake"],
      complete: false,
      restarted: ["fake: docs/README.md created, which the server is not known to follow"],
    });
    expect((diagnostics as { file: string }[]).map((d) => d.file)).toEqual(["a.fake", "b.fake"]);
    expect(await restarts(bridge)).toMatchObject({ count: 1 });
  });

  test("an open document the server never published for is still not waited for", async () => {
    const { ws, bridge } = await fakeBridge({ "a.fake": "a\n" }, { responses: HOVER }, READS);
    for (const change of [() => {}, () => ws.write("docs/README.md", "changed")]) {
      change();
      expect((await bridge.call("hover", AT)).isError).toBe(false);
      const all = await bridge.call("diagnostics", {});
      expect(all.structured).toMatchObject({
        files: ["a.fake"],
        settled: false,
        unsettled: [{ file: "a.fake", reason: NOT_PUBLISHED }],
      });
    }
    expect(await restarts(bridge)).toMatchObject({ count: 1 });
  });
});
