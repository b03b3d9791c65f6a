/**
 * Documents and positions (SPEC §4.2, §5): didOpen once, didChange
 * with version + 1 only when the content changed, LRU didClose past
 * max_open_documents; file checks (confinement, existence, size, UTF-8) that
 * never start a server; position checks; `symbol` + `occurrence` anchoring on
 * a line with astral characters, checked in the exact LSP character the
 * server receives for each negotiated encoding.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bridgeFor, FakeProbe, fakeBridge, lspRange, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };

function syncLog(fake: FakeProbe): [string, string, number | null][] {
  return fake
    .state()
    .events.filter((e) => e.dir === "in" && e.method.startsWith("textDocument/did"))
    .map((e) => {
      const d = e.detail as { uri: string; version: number | null };
      return [e.method.slice("textDocument/".length), d.uri, d.version];
    });
}

describe("document sync", () => {
  test("didOpen once; didChange with version + 1 only when the content changed", async () => {
    const { ws, fake, bridge } = await fakeBridge({ "a.fake": "one\n" }, { responses: HOVER });
    const at = { file: "a.fake", line: 1, column: 1 };
    const a = ws.uri("a.fake");
    expect((await bridge.call("hover", at)).isError).toBe(false);
    expect((await bridge.call("hover", at)).isError).toBe(false);
    expect(syncLog(fake)).toEqual([["didOpen", a, 1]]);
    ws.write("a.fake", "two\n");
    expect((await bridge.call("hover", at)).isError).toBe(false);
    ws.write("a.fake", "two\n"); // rewritten, same bytes: nothing to send
    expect((await bridge.call("hover", at)).isError).toBe(false);
    expect(syncLog(fake)).toEqual([
      ["didOpen", a, 1],
      ["didChange", a, 2],
    ]);
    expect(fake.state().documents[a]).toEqual({
      languageId: "fake",
      version: 2,
      text: "two\n",
      open: true,
      opens: 1,
      changes: 1,
      closes: 0,
    });
  });

  test("past max_open_documents the least recently used document is closed; a reopen continues its versions", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "a\n", "b.fake": "b\n", "c.fake": "c\n" },
      { responses: HOVER },
      {},
      { max_open_documents: 2 },
    );
    for (const f of ["a.fake", "b.fake", "c.fake", "b.fake", "a.fake"]) {
      const r = await bridge.call("hover", { file: f, line: 1, column: 1 });
      expect(r.isError).toBe(false);
    }
    const [a, b, c] = [ws.uri("a.fake"), ws.uri("b.fake"), ws.uri("c.fake")];
    expect(syncLog(fake)).toEqual([
      ["didOpen", a, 1],
      ["didOpen", b, 1],
      ["didOpen", c, 1],
      ["didClose", a, null],
      // never version 1 again: a publish for the first opening cannot pass for this one
      ["didOpen", a, 2],
      ["didClose", c, null],
    ]);
    const status = await bridge.call("session_status");
    expect((status.structured.sessions as { open_documents: number }[])[0]?.open_documents).toBe(2);
  });
});

describe("file and position checks", () => {
  const outside = tempDir("theodolite-outside-");
  writeFileSync(join(outside, "secret.fake"), "secret\n");
  const ws = workspace({
    "a.fake": "let x = foo(x, foo);\n",
    "big.fake": `${"x".repeat(99)}\n`,
  });
  ws.write("latin1.fake", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  symlinkSync(join(outside, "secret.fake"), ws.path("link.fake"));
  symlinkSync(outside, ws.path("linkdir"));
  const fake = new FakeProbe("fake");
  const config = {
    ws,
    bridge: { max_file_bytes: 64 },
    servers: [fake.server({ responses: HOVER })],
  };

  test("bad paths are refused with typed errors and start no server", async () => {
    const { bridge } = await bridgeFor(config);
    const cases: [string, string][] = [
      ["../x.fake", "PathOutsideWorkspace"],
      ["link.fake", "PathOutsideWorkspace"],
      ["linkdir/secret.fake", "PathOutsideWorkspace"],
      [join(outside, "secret.fake"), "PathOutsideWorkspace"],
      ["missing.fake", "FileNotFound"],
      ["big.fake", "FileTooLarge"],
      ["latin1.fake", "NotUtf8"],
    ];
    for (const [file, code] of cases) {
      const r = await bridge.call("hover", { file, line: 1, column: 1 });
      expect([file, r.structured.code]).toEqual([file, code]);
      expect(typeof r.structured.hint).toBe("string");
    }
    const big = await bridge.call("hover", { file: "big.fake", line: 1, column: 1 });
    expect(big.structured.details).toEqual({ bytes: 100, max_bytes: 64 });
    const status = await bridge.call("session_status");
    expect((status.structured.sessions as { state: string }[])[0]?.state).toBe("not_started");
  });

  test("a path that changes between two calls is refused by the next: a link out, a directory, a FIFO", async () => {
    const ws2 = workspace({ "sub/a.fake": "let a;\n", "sub/b.fake": "let b;\n", "c.fake": "c\n" });
    const out2 = tempDir("theodolite-outside-");
    writeFileSync(join(out2, "a.fake"), "secret\n");
    const { bridge } = await bridgeFor({ ...config, ws: ws2 });
    const hover = (file: string) => bridge.call("hover", { file, line: 1, column: 1 });
    // each answered twice: the second call may reuse the first one's resolution
    for (const f of ["sub/a.fake", "sub/b.fake", "c.fake"]) {
      expect((await hover(f)).isError).toBe(false);
      expect((await hover(f)).isError).toBe(false);
    }
    renameSync(ws2.path("sub"), ws2.path("sub.old"));
    symlinkSync(out2, ws2.path("sub"));
    expect((await hover("sub/a.fake")).structured.code).toBe("PathOutsideWorkspace");
    rmSync(ws2.path("sub"));
    mkdirSync(ws2.path("sub"));
    mkdirSync(ws2.path("sub/b.fake"));
    expect((await hover("sub/b.fake")).structured.code).toBe("FileNotFound");
    rmSync(ws2.path("c.fake"));
    expect(Bun.spawnSync(["mkfifo", ws2.path("c.fake")]).success).toBe(true);
    expect((await hover("c.fake")).structured.code).toBe("FileNotFound");
  });

  test("positions are never clamped; symbols must be on the line", async () => {
    const { bridge } = await bridgeFor(config);
    const call = (args: Record<string, unknown>) =>
      bridge.call("hover", { file: "a.fake", line: 1, ...args });
    expect((await call({ line: 3, column: 1 })).structured.code).toBe("PositionOutOfRange");
    // "let x = foo(x, foo);" has 20 code points: column 21 is the end, 22 is past it
    expect((await call({ column: 21 })).isError).toBe(false);
    expect((await call({ column: 22 })).structured.code).toBe("PositionOutOfRange");
    const missing = await call({ symbol: "bar" });
    expect(missing.structured.code).toBe("SymbolNotOnLine");
    const third = await call({ symbol: "foo", occurrence: 3 });
    expect(third.structured.code).toBe("SymbolNotOnLine");
    expect(third.structured.details).toEqual({ line: 1, symbol: "foo", occurrence: 3, found: 2 });
    expect((await call({ symbol: "foo", occurrence: 2 })).isError).toBe(false);
    const sent = fake.requests("textDocument/hover").map((q) => q.params);
    expect(sent.at(-1)).toEqual({
      textDocument: { uri: ws.uri("a.fake") },
      position: { line: 0, character: 15 },
    });
  });
});

describe("symbol + occurrence across encodings", () => {
  // U+1D4B3 is a letter (an identifier character) outside the BMP: 1 code point, 2 UTF-16
  // units, 4 UTF-8 bytes. "𝒳𝒳" is one identifier, so the whole-identifier occurrences of
  // "𝒳" are the one after "= " and the one after "+ ".
  const LINE = "𝒳𝒳 = 𝒳 + 𝒳;";
  const expected = { "utf-16": 12, "utf-32": 9, "utf-8": 18 } as const;
  const width = { "utf-16": 2, "utf-32": 1, "utf-8": 4 } as const;

  test("the server receives the exact character of the 2nd occurrence in its own encoding", async () => {
    const ws = workspace({ "t.f16": `${LINE}\n`, "t.f32": `${LINE}\n`, "t.f8": `${LINE}\n` });
    const probes = {
      "utf-16": new FakeProbe("f16"),
      "utf-32": new FakeProbe("f32"),
      "utf-8": new FakeProbe("f8"),
    };
    const servers = Object.entries(probes).map(([encoding, probe]) => {
      const c = expected[encoding as keyof typeof expected];
      const w = width[encoding as keyof typeof width];
      return probe.server(
        {
          encoding,
          responses: { "textDocument/hover": { contents: "X", range: lspRange(0, c, c + w) } },
        },
        { extensions: { [probe.name]: "fake" } },
      );
    });
    const { bridge } = await bridgeFor({ ws, servers });
    for (const [encoding, probe] of Object.entries(probes)) {
      const file = `t.${probe.name}`;
      const bySymbol = await bridge.call("hover", { file, line: 1, symbol: "𝒳", occurrence: 2 });
      expect(bySymbol.isError).toBe(false);
      // the range comes back in code points (the default column unit): column 10
      expect(bySymbol.structured).toEqual({
        text: "X",
        range: { line: 1, column: 10, end_line: 1, end_column: 11 },
      });
      const byColumn = await bridge.call("hover", { file, line: 1, column: 10 });
      expect(byColumn.text).toBe(bySymbol.text);
      const positions = probe.requests("textDocument/hover").map((q) => {
        return (q.params as { position: { character: number } }).position.character;
      });
      expect([encoding, positions]).toEqual([
        encoding,
        [expected[encoding as keyof typeof expected], expected[encoding as keyof typeof expected]],
      ]);
    }
    const status = await bridge.call("session_status");
    const encodings = (status.structured.sessions as { position_encoding: string }[]).map(
      (s) => s.position_encoding,
    );
    expect(encodings).toEqual(["utf-16", "utf-32", "utf-8"]);
  });
});
