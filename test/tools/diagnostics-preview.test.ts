/**
 * `diagnostics {contents}` against the scriptable fake (SPEC §6.2): the answer with proposed
 * texts (a new file too) and what they add against the disk; nothing written, the server's
 * documents the disk's again; bad entries refused before the server hears of them; a server
 * that crashes mid-preview, and a cancelled preview, leave the view the disk's; another call
 * on the session waits until the preview is over, and a disk change meanwhile is seen then. The fake publishes one error per "ERR".
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { bridgeFor, FakeProbe, fakeBridge, sessionOf, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitFor, waitForValue } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const ERR = { pattern: "ERR", message: "bad thing", severity: 1 };
const SNAPSHOT = expect.stringMatching(/^d[0-9a-f]{20}$/);

function err(file: string, line: number, column: number) {
  const at = { file, line, column, end_line: line, end_column: column + 3 };
  return { ...at, severity: "error", message: "bad thing", channels: ["push"] };
}

async function start(
  files: Record<string, string>,
  scenario: Record<string, unknown> = { publish_matches: ERR },
  extra: Record<string, unknown> = {},
  bridgeKeys: Record<string, unknown> = {},
) {
  const { ws, fake, bridge } = await fakeBridge(files, scenario, extra, {
    request_timeout_ms: 20_000,
    ...bridgeKeys,
  });
  return { ws, fake, bridge };
}

/** The fake's open documents' texts, by workspace-relative name. */
function openTexts(fake: FakeProbe, root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [uri, d] of Object.entries(fake.state().documents)) {
    if (d.open) out[uri.slice(`file://${root}/`.length)] = d.text;
  }
  return out;
}

describe("a preview", () => {
  test("reports proposed texts and open documents, adds against disk, writes nothing", async () => {
    const { ws, fake, bridge } = await start({ "a.fake": "fine\n", "b.fake": "x ERR\n" });
    const disk = await bridge.call("diagnostics", { files: ["a.fake", "b.fake"] });
    expect(disk.structured.total).toBe(1);
    const mtime = statSync(ws.path("a.fake")).mtimeMs;

    const r = await bridge.call("diagnostics", {
      contents: [
        { file: "a.fake", text: "ERR\n" },
        { file: "new/dir/n.fake", text: "new ERR\n" },
      ],
    });
    expect(r.structured).toEqual({
      diagnostics: [err("a.fake", 1, 1), err("b.fake", 1, 3), err("new/dir/n.fake", 1, 5)],
      total: 3,
      added: [err("a.fake", 1, 1), err("new/dir/n.fake", 1, 5)],
      removed: [],
      unchanged: 1,
      files: ["a.fake", "b.fake", "new/dir/n.fake"],
      snapshot: SNAPSHOT,
      // what names a new file is looked for on disk: said
      uncovered: [
        { server: "fake", channel: "disk", files: ["new/dir/n.fake"], reason: expect.any(String) },
      ],
    });
    // nothing written; the server holds the disk's texts, the new file closed
    expect(readFileSync(ws.path("a.fake"), "utf8")).toBe("fine\n");
    expect(statSync(ws.path("a.fake")).mtimeMs).toBe(mtime);
    expect(() => statSync(ws.path("new"))).toThrow();
    expect(openTexts(fake, ws.root)).toEqual({ "a.fake": "fine\n", "b.fake": "x ERR\n" });
    expect(fake.events("textDocument/didSave", "in")).toEqual([]);
    // the next plain answer is the disk's, as before the preview
    const after = await bridge.call("diagnostics", { files: ["a.fake", "b.fake"] });
    expect(after.structured.snapshot).toBe(disk.structured.snapshot as string);
    // after writing what was previewed, nothing is added or removed since the preview
    ws.write("a.fake", "ERR\n");
    ws.write("new/dir/n.fake", "new ERR\n");
    const written = await bridge.call("diagnostics", {
      files: ["a.fake", "b.fake", "new/dir/n.fake"],
      since: r.structured.snapshot,
    });
    expect(written.structured).toMatchObject({ added: [], removed: [], unchanged: 3 });
  });

  test("with `files`: those are checked too, opened if they were not, and nothing else", async () => {
    const { fake, bridge } = await start({
      "a.fake": "fine\n",
      "dep.fake": "uses a ERR\n",
      "noisy.fake": "ERR ERR ERR\n",
    });
    // noisy.fake is open, dep.fake is not: a preview alone would miss dep.fake
    await bridge.call("diagnostics", { file: "noisy.fake" });
    const r = await bridge.call("diagnostics", {
      contents: [{ file: "a.fake", text: "ERR\n" }],
      files: ["dep.fake"],
    });
    expect(r.structured).toEqual({
      diagnostics: [err("a.fake", 1, 1), err("dep.fake", 1, 8)],
      total: 2,
      added: [err("a.fake", 1, 1)],
      removed: [],
      unchanged: 1,
      files: ["a.fake", "dep.fake"],
      snapshot: SNAPSHOT,
    });
    expect(Object.keys(fake.state().documents).some((u) => u.endsWith("/dep.fake"))).toBe(true);
    const missing = await bridge.call("diagnostics", {
      contents: [{ file: "a.fake", text: "ERR\n" }],
      files: ["gone.fake"],
    });
    expect(missing.structured.code).toBe("FileNotFound");
  });

  test("an answer past max_result_bytes is ResultTooLarge, summarized per file", async () => {
    const { bridge } = await start(
      { "a.fake": "fine\n" },
      undefined,
      {},
      {
        max_result_bytes: 2048,
      },
    );
    const r = await bridge.call("diagnostics", {
      contents: [{ file: "a.fake", text: "ERR ".repeat(40) }],
    });
    expect(r.structured.code).toBe("ResultTooLarge");
    // 40 items in `diagnostics` and 40 in `added`
    expect(r.structured.details).toMatchObject({
      count: 80,
      max_bytes: 2048,
      files: 1,
      by_file: [{ file: "a.fake", count: 80 }],
    });
  });

  test("past the cap whole, the delta alone when it fits: the diagnostics omitted, said", async () => {
    const { bridge } = await start(
      { "a.fake": "ERR ".repeat(30) },
      undefined,
      {},
      { max_result_bytes: 2048 },
    );
    const r = await bridge.call("diagnostics", {
      contents: [{ file: "a.fake", text: `${"ERR ".repeat(30)}\nERR\n` }],
    });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({
      diagnostics: [],
      total: 31,
      diagnostics_omitted: true,
      added: [err("a.fake", 2, 1)],
      removed: [],
      unchanged: 30,
    });
  });

  test("what the servers read from disk is said: new files, and another server's configuration", async () => {
    const ws = workspace({ "a.fake": "fine\n", "b.conf": "x\n" });
    const [fake, conf] = [new FakeProbe("fake"), new FakeProbe("conf")];
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        fake.server({ publish_matches: ERR }, { restart_on: ["*.conf"] }),
        conf.server({ publish_matches: ERR }, { extensions: { conf: "fake" } }),
      ],
      bridge: { request_timeout_ms: 20_000 },
    });
    const r = await bridge.call("diagnostics", {
      contents: [
        { file: "b.conf", text: "y\n" },
        { file: "new/c.fake", text: "fine\n" },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.structured.uncovered).toEqual([
      {
        server: "fake",
        channel: "disk",
        files: ["b.conf"],
        reason: expect.stringContaining("from disk"),
      },
      {
        server: "fake",
        channel: "disk",
        files: ["new/c.fake"],
        reason: expect.stringContaining("new files"),
      },
    ]);
  });

  test("bad entries are typed errors and reach no server", async () => {
    const { fake, bridge } = await start(
      { "a.fake": "fine\n" },
      undefined,
      {},
      {
        max_file_bytes: 64,
      },
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ contents: [{ file: "../out.fake", text: "x" }] }, "PathOutsideWorkspace"],
      [{ contents: [{ file: "a.fake", text: "x".repeat(65) }] }, "FileTooLarge"],
      [
        {
          contents: [
            { file: "a.fake", text: "" },
            { file: "./a.fake", text: "" },
          ],
        },
        "InvalidArgument",
      ],
      [{ contents: [{ file: "x.unknown", text: "" }] }, "NoServerForFile"],
      [{ contents: [{ file: "a.fake/x.fake", text: "" }] }, "FileNotFound"],
      [
        { contents: Array.from({ length: 17 }, (_, i) => ({ file: `${i}.fake`, text: "" })) },
        "InvalidArgument",
      ],
      [{ contents: [] }, "InvalidArgument"],
      [{ contents: [{ file: "a.fake", text: "" }], file: "a.fake" }, "InvalidArgument"],
      [{ contents: [{ file: "a.fake", text: "" }], since: "d0" }, "InvalidArgument"],
    ];
    for (const [args, code] of cases) {
      const r = await bridge.call("diagnostics", args);
      expect({ args, code: r.structured.code }).toEqual({ args, code });
      expect(String(r.structured.hint ?? "")).not.toBe("");
    }
    // no session was even started
    expect(fake.records()).toEqual([]);
  });
});

describe("faults", () => {
  // a pulled server: a proposed open document gets a didChange, on which this one dies
  const PULL = { diagnostics_settle: "pull" };
  const PULLS = { capabilities: { textDocumentSync: 1, diagnosticProvider: {} } };

  test("the server crashing mid-preview: a typed error; the view is the disk's after", async () => {
    const { ws, fake, bridge } = await start(
      { "a.fake": "fine\n" },
      { ...PULLS, pull_diagnostics: [], crash_on: ["textDocument/didChange"] },
      PULL,
    );
    expect((await bridge.call("diagnostics", { file: "a.fake" })).isError).toBe(false);
    const r = await bridge.call("diagnostics", { contents: [{ file: "a.fake", text: "ERR\n" }] });
    expect(r.isError).toBe(true);
    expect(["SessionDead", "ServerError"]).toContain(r.structured.code as string);
    expect(readFileSync(ws.path("a.fake"), "utf8")).toBe("fine\n");
    // restarted: the new server is given the disk's text, and answers for it
    expect((await bridge.call("session_restart", {})).isError).toBe(false);
    const again = await bridge.call("diagnostics", { file: "a.fake" });
    expect(again.isError).toBe(false);
    expect(openTexts(fake, ws.root)).toEqual({ "a.fake": "fine\n" });
  });

  test("a cancelled preview restores the view; a call meanwhile waits for it", async () => {
    // a server that never publishes: the preview waits for its proposed document
    const { ws, fake, bridge } = await start(
      { "a.fake": "fine\n" },
      { responses: { "textDocument/hover": { contents: "hi" } } },
    );
    const abort = new AbortController();
    const preview = bridge.client
      .callTool(
        { name: "diagnostics", arguments: { contents: [{ file: "a.fake", text: "ERR\n" }] } },
        undefined,
        { signal: abort.signal, timeout: 60_000 },
      )
      .then(
        () => "answered",
        (e: unknown) => String(e),
      );
    await waitFor(() => openTexts(fake, ws.root)["a.fake"] === "ERR\n", 10_000);
    const hover = bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    // the hover waits for the preview (session_status says so), then the preview is cancelled
    await waitForValue(async () => {
      const s = await sessionOf(bridge, "w", "fake");
      return (s.previewing as { waiting: number } | undefined)?.waiting === 1 ? true : undefined;
    }, 10_000);
    // the disk changes during the preview: seen once it is over
    ws.write("a.fake", "changed\n");
    abort.abort();
    expect(await preview).toContain("AbortError");
    expect((await hover).isError).toBe(false);
    expect(openTexts(fake, ws.root)).toEqual({ "a.fake": "changed\n" });
    // the hover reached the server only once the disk's text was back: the texts it was
    // given, in order, with the hover among them
    const seen = fake.records().flatMap((m) => {
      const p = m.params as {
        textDocument?: { text?: string };
        contentChanges?: { text: string }[];
      };
      if (m.method === "textDocument/hover") return ["hover"];
      if (m.method === "textDocument/didOpen") return [p.textDocument?.text ?? ""];
      if (m.method === "textDocument/didChange") return [p.contentChanges?.at(-1)?.text ?? ""];
      return m.method === "textDocument/didClose" ? ["closed"] : [];
    });
    // (the cancelled settle closed the document; the hover opened it from disk)
    expect(seen).toEqual(["ERR\n", "closed", "changed\n", "hover"]);
  });
});
