/**
 * Coherence with the scriptable fake server (SPEC §5): the bridge advertises dynamic file
 * watching honestly, honours `client/registerCapability` for
 * `workspace/didChangeWatchedFiles` (globs, RelativePatterns, kind bits, unregistration),
 * and delivers every change made on disk before a call *before* that call's request — the
 * order is read from what the fake server received. Open documents follow the disk
 * (didChange version + 1, didClose when gone); a push server's document is closed and
 * opened afresh when the workspace changed around it, and the diagnostics answer is the
 * publish for the reopened version; session_status reports the watch and its bound.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { rmSync, unlinkSync } from "node:fs";
import { type FakeProbe, fakeBridge, sessionOf, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };

/** A server that registers file watchers right after `initialized`. */
function watching(watchers: unknown[], extra: Record<string, unknown> = {}) {
  return {
    responses: HOVER,
    server_requests: [
      {
        method: "client/registerCapability",
        params: {
          registrations: [
            { id: "w1", method: "workspace/didChangeWatchedFiles", registerOptions: { watchers } },
          ],
        },
        after_ms: 0,
      },
    ],
    ...extra,
  };
}

type Rec = { method?: string; id?: unknown; params?: Record<string, unknown> };

/** The messages the fake received from `from` on, as `method` or `method detail` lines. */
function received(fake: FakeProbe, root: string, from = 0): string[] {
  const rel = (uri: unknown) => String(uri).replace(`file://${root}/`, "");
  return (fake.records() as Rec[]).slice(from).flatMap((m) => {
    const p = m.params ?? {};
    switch (m.method) {
      case "workspace/didChangeWatchedFiles":
        return [
          `watched ${(p.changes as { uri: string; type: number }[])
            .map((c) => `${c.type}:${rel(c.uri)}`)
            .join(" ")}`,
        ];
      case "textDocument/didOpen":
      case "textDocument/didChange":
      case "textDocument/didClose":
      case "textDocument/didSave": {
        const td = p.textDocument as { uri: string; version?: number };
        return [`${m.method.slice(13)} ${rel(td.uri)}${td.version ? ` v${td.version}` : ""}`];
      }
      case "textDocument/hover":
      case "textDocument/diagnostic":
      case "theodolite/barrier":
        return [m.method];
      default:
        return [];
    }
  });
}

/** Wait until the session reports the server's watchers in effect. */
async function watchersInEffect(bridge: Parameters<typeof sessionOf>[0], count: number) {
  return waitForValue(
    async () => {
      const s = await sessionOf(bridge, "w", "fake");
      const c = s.coherence as { watchers: string[] };
      return c.watchers.length === count ? s : undefined;
    },
    10_000,
    { what: "the watcher registration in session_status" },
  );
}

describe("file watchers (workspace/didChangeWatchedFiles)", () => {
  test("the client capability is advertised: dynamic registration with relative patterns", async () => {
    const { fake, bridge } = await fakeBridge({ "a.fake": "a\n" }, { responses: HOVER });
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    const init = fake.requests("initialize")[0]?.params as {
      capabilities: { workspace: { didChangeWatchedFiles: unknown } };
    };
    expect(init.capabilities.workspace.didChangeWatchedFiles).toEqual({
      dynamicRegistration: true,
      relativePatternSupport: true,
    });
  });

  test("changes made before a call reach the server before the call's request, matching files only", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "a\n", "lib/old.txt": "x", "lib/keep.txt": "k", "n.md": "n" },
      watching([{ globPattern: "**/*.txt" }]),
    );
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    await watchersInEffect(bridge, 1);
    const from = fake.records().length;
    ws.write("lib/new.txt", "n");
    ws.write("lib/keep.txt", "k2");
    unlinkSync(ws.path("lib/old.txt"));
    ws.write("n.md", "not asked for");
    ws.write("deep/er/made.txt", "d");
    expect((await bridge.call("hover", { file: "a.fake", line: 1, column: 1 })).isError).toBe(
      false,
    );
    expect(received(fake, ws.root, from)).toEqual([
      "watched 1:lib/new.txt 2:lib/keep.txt 3:lib/old.txt 1:deep/er/made.txt",
      "textDocument/hover",
    ]);
  });

  test("no race: twenty writes, each delivered before the very next request", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "a\n", "f.txt": "0" },
      watching([{ globPattern: "**/*.txt", kind: 2 }]),
    );
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    await watchersInEffect(bridge, 1);
    for (let i = 1; i <= 20; i++) {
      const from = fake.records().length;
      ws.write("f.txt", String(i));
      await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
      expect(received(fake, ws.root, from)).toEqual(["watched 2:f.txt", "textDocument/hover"]);
    }
  });

  test("a RelativePattern with kind bits: deletions below its base only; unregistration stops delivery", async () => {
    const ws = workspace({ "a.fake": "a\n", "sub/x.txt": "x", "sub/y.txt": "y", "top.txt": "t" });
    const scenario = watching([
      { globPattern: { baseUri: ws.uri("sub"), pattern: "*.txt" }, kind: 4 },
    ]);
    scenario.server_requests.push({
      method: "client/unregisterCapability",
      params: {
        unregisterations: [{ id: "w1", method: "workspace/didChangeWatchedFiles" }],
      } as never,
      on: "textDocument/hover",
    } as never);
    const { fake, bridge } = await fakeBridge(ws, scenario);
    await bridge.call("session_status", { start: true });
    await watchersInEffect(bridge, 1);
    const from = fake.records().length;
    ws.write("sub/x.txt", "changed");
    unlinkSync(ws.path("sub/y.txt"));
    unlinkSync(ws.path("top.txt"));
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(received(fake, ws.root, from).filter((l) => l.startsWith("watched"))).toEqual([
      "watched 3:sub/y.txt",
    ]);
    // the hover made the fake unregister; from then on nothing is delivered
    await watchersInEffect(bridge, 0);
    const later = fake.records().length;
    unlinkSync(ws.path("sub/x.txt"));
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    // no event; a server that reads no file from disk (the fake: `reads = []`) is told of no
    // change elsewhere either (one that reads it would restart, SPEC §5.3)
    expect(received(fake, ws.root, later)).toEqual(["textDocument/hover"]);
  });

  test("session_status: the watchers, the watched directories against max_watches, what is not watched", async () => {
    const { bridge } = await fakeBridge(
      { "a.fake": "a\n", "d1/x.txt": "", "d2/y.txt": "", "d2/deep/z.txt": "" },
      watching([{ globPattern: "**/*.txt" }]),
      {},
      { max_watches: 3 },
    );
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    const s = await watchersInEffect(bridge, 1);
    const c = s.coherence as Record<string, unknown>;
    expect(c.watchers).toEqual(["**/*.txt"]);
    expect(c.watchers_outside_root).toEqual([]);
    expect(c.watch).toMatchObject({
      state: "watching",
      watched_directories: 3,
      max_watches: 3,
      unwatched_directories: 1,
      unwatched_sample: ["d2/deep"],
    });
    expect((c.watch as { reason: string }).reason).toContain("bridge.max_watches (3)");
  });
});

describe("open documents follow the disk", () => {
  test("every open document is checked before each call: changed → didChange, gone → didClose", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "a\n", "b.fake": "b\n", "c.fake": "c\n" },
      { responses: HOVER },
    );
    for (const f of ["a.fake", "b.fake", "c.fake"]) {
      await bridge.call("hover", { file: f, line: 1, column: 1 });
    }
    const from = fake.records().length;
    ws.write("b.fake", "b changed\n");
    rmSync(ws.path("c.fake"));
    await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(received(fake, ws.root, from)).toEqual([
      "didClose c.fake",
      "didChange b.fake v2",
      // the server registered no watchers and cannot know what else changed: the
      // document asked about is opened afresh, so the server builds it again
      "didClose a.fake",
      "theodolite/barrier",
      "didOpen a.fake v2",
      "textDocument/hover",
    ]);
    expect(fake.state().documents[ws.uri("b.fake")]?.text).toBe("b changed\n");
  });
});

describe("a push server catches up with the workspace", () => {
  test("diagnostics after a change elsewhere: closed, barrier, reopened; the answer is the reopened version's publish", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "uses dep\n", "dep.fake": "v1\n" },
      { publish_matches: { pattern: "dep", message: "about dep", severity: 1 } },
    );
    const first = await bridge.call("diagnostics", { file: "a.fake" });
    expect(first.isError).toBe(false);
    // nothing changed: no refresh, the stored publish answers
    const from0 = fake.records().length;
    await bridge.call("diagnostics", { file: "a.fake" });
    expect(received(fake, ws.root, from0)).toEqual([]);
    // another file changed on disk: the server was not told (it registered no watchers),
    // so a.fake is opened afresh and its new publish awaited
    ws.write("dep.fake", "v2\n");
    const from = fake.records().length;
    const r = await bridge.call("diagnostics", { file: "a.fake" });
    expect(r.isError).toBe(false);
    expect(received(fake, ws.root, from)).toEqual([
      "didClose a.fake",
      "theodolite/barrier",
      "didOpen a.fake v2",
    ]);
    expect(r.structured.diagnostics).toEqual([
      {
        file: "a.fake",
        ...{ line: 1, column: 6, end_line: 1, end_column: 9 },
        severity: "error",
        message: "about dep",
        channels: ["push"],
      },
    ]);
  });
});

describe("dependencies outside the root the bridge cannot watch whole", () => {
  test("are named in every answer, diagnostics too, and in session_status", async () => {
    // `-I..`: the root's parent holds the root itself, so it is named, never watched
    const ws = workspace({
      "a.fake": "uses dep\n",
      "compile_commands.json": JSON.stringify([
        { directory: "<root>", file: "a.fake", arguments: ["cc", "-I..", "-c", "a.fake"] },
      ]),
    });
    ws.write("compile_commands.json", ws.read("compile_commands.json").replace("<root>", ws.root));
    const parent = ws.root.slice(0, ws.root.lastIndexOf("/"));
    const { bridge } = await fakeBridge(ws, {
      responses: HOVER,
      publish_matches: { pattern: "dep", message: "about dep", severity: 1 },
    });
    const hover = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(hover.structured.outside_unwatched).toEqual([parent]);
    const one = await bridge.call("diagnostics", { file: "a.fake" });
    expect(one.structured.outside_unwatched).toEqual([parent]);
    const all = await bridge.call("diagnostics", {});
    expect(all.structured.outside_unwatched).toEqual([parent]);
    const status = await bridge.call("session_status", {});
    const [session] = status.structured.sessions as { coherence: Record<string, unknown> }[];
    expect(session?.coherence.outside_unwatched).toEqual([parent]);
  });
});
