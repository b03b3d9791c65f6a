/**
 * completion and signature_help (SPEC §4.1, §4.3) against canned fake answers: the request
 * each sends (position, invoked context), the deterministic order, the default page of 50,
 * resolve on the page's first items only, ResultTooLarge with a limit that fits, and the
 * fault paths — no provider (ServerLacksCapability), a malformed answer (ServerError), a
 * refused resolve (the item as it came).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";

const ws = workspace({
  "a.fake": "/*🎯*/ obj.ar\n",
  "b.many": "x\n",
  "c.plain": "x\n",
  "d.bad": "x\n",
  "e.refuse": "x\n",
  "f.quiet": "x\n",
});

/** 60 members: the server's order reversed, `sortText` putting them back. */
const MANY = Array.from({ length: 60 }, (_, i) => {
  const n = String(59 - i).padStart(2, "0");
  return { label: `m${n}`, kind: 2, sortText: n, data: { n } };
});

const fake = new FakeProbe("fake");
const many = new FakeProbe("many");
const plain = new FakeProbe("plain");
const bad = new FakeProbe("bad");
const refuse = new FakeProbe("refuse");
const quiet = new FakeProbe("quiet");
const SERVERS = [
  fake.server({
    capabilities: {
      textDocumentSync: 1,
      completionProvider: { resolveProvider: true },
      signatureHelpProvider: {},
    },
    // a server that publishes per version (the default rule) is asked once it published
    publish_on_sync: [],
    responses: {
      "textDocument/completion": {
        isIncomplete: true,
        items: [
          { label: "side", kind: 10, sortText: "2" },
          {
            label: "area",
            kind: 2,
            sortText: "1",
            textEdit: { range: lspRange(0, 11, 13), newText: "area" },
          },
        ],
      },
      "textDocument/signatureHelp": {
        signatures: [{ label: "area(🎯 k: number)", parameters: [{ label: [5, 17] }] }],
        activeSignature: 0,
        activeParameter: 0,
      },
    },
    completion_resolve: { area: { documentation: { kind: "markdown", value: "# Area\nof it" } } },
  }),
  many.server(
    {
      capabilities: { textDocumentSync: 1, completionProvider: { resolveProvider: true } },
      publish_on_sync: [],
      responses: { "textDocument/completion": MANY },
      completion_resolve: Object.fromEntries(
        MANY.map((m) => [m.label, { documentation: `doc of ${m.label}` }]),
      ),
    },
    { extensions: { many: "fake" } },
  ),
  plain.server({ capabilities: { textDocumentSync: 1 } }, { extensions: { plain: "fake" } }),
  bad.server(
    {
      capabilities: {
        textDocumentSync: 1,
        completionProvider: { resolveProvider: true },
        signatureHelpProvider: {},
      },
      publish_on_sync: [],
      responses: {
        "textDocument/completion": "nonsense",
        "textDocument/signatureHelp": { signatures: 3 },
      },
    },
    { extensions: { bad: "fake" } },
  ),
  refuse.server(
    {
      capabilities: { textDocumentSync: 1, completionProvider: { resolveProvider: true } },
      publish_on_sync: [],
      publish_delay_ms: 300,
      responses: { "textDocument/completion": [{ label: "x", documentation: "own" }] },
      error_on: { "completionItem/resolve": { code: -32603, message: "cannot" } },
    },
    { extensions: { refuse: "fake" } },
  ),
  // no diagnostics role, never publishes: nothing to wait for
  quiet.server(
    {
      capabilities: { textDocumentSync: 1, completionProvider: {} },
      responses: { "textDocument/completion": [{ label: "q" }] },
    },
    { extensions: { quiet: "fake" }, roles: ["semantics"] },
  ),
];

let bridge: BridgeHandle;
beforeAll(async () => {
  ({ bridge } = await bridgeFor({
    ws,
    servers: SERVERS,
    bridge: { max_result_bytes: 2600, max_limit: 100 },
  }));
});
afterAll(closeBridgesAndTempDirs);

const AT = { file: "a.fake", line: 1, column: 11 };

describe("completion", () => {
  test("the position and an invoked context are sent; items sorted, the edit's range converted", async () => {
    const r = await bridge.call("completion", AT);
    expect(r.structured).toEqual({
      items: [
        {
          label: "area",
          kind: "method",
          insert: "area",
          range: { line: 1, column: 11, end_line: 1, end_column: 13 },
        },
        { label: "side", kind: "property", insert: "side" },
      ],
      total: 2,
      is_incomplete: true,
    });
    const sent = fake.requests("textDocument/completion").at(-1)?.params;
    // column 11 in code points is UTF-16 character 11 after the two-unit emoji
    expect(sent).toEqual({
      textDocument: { uri: ws.uri("a.fake") },
      position: { line: 0, character: 11 },
      context: { triggerKind: 1 },
    });
    expect(fake.requests("completionItem/resolve")).toEqual([]);
  });

  test("resolve: n resolves the page's first n items for their documentation, as plain text", async () => {
    const r = await bridge.call("completion", { ...AT, resolve: 1 });
    const items = r.structured.items as Record<string, unknown>[];
    expect(items[0]?.documentation).toBe("Area\nof it");
    expect(items[1]?.documentation).toBeUndefined();
    expect(fake.requests("completionItem/resolve").map((q) => q.params)).toEqual([
      {
        label: "area",
        kind: 2,
        sortText: "1",
        textEdit: { range: lspRange(0, 11, 13), newText: "area" },
      },
    ]);
  });

  test("a page of 50 by default; limit and offset page on; resolve stays on the page", async () => {
    const first = await bridge.call("completion", { file: "b.many", line: 1, column: 1 });
    const items = first.structured.items as { label: string }[];
    expect(items.length).toBe(50);
    expect(items[0]?.label).toBe("m00");
    expect(first.structured.next_offset).toBe(50);
    expect(first.structured.total).toBe(60);
    const next = await bridge.call("completion", {
      file: "b.many",
      line: 1,
      column: 1,
      offset: 50,
      limit: 5,
      resolve: 2,
    });
    const page = next.structured.items as { label: string; documentation?: string }[];
    expect(page.map((i) => [i.label, i.documentation])).toEqual([
      ["m50", "doc of m50"],
      ["m51", "doc of m51"],
      ["m52", undefined],
      ["m53", undefined],
      ["m54", undefined],
    ]);
    // the items go back to the server as it sent them, data and all
    expect(many.requests("completionItem/resolve").map((q) => q.params)).toEqual([
      { label: "m50", kind: 2, sortText: "50", data: { n: "50" } },
      { label: "m51", kind: 2, sortText: "51", data: { n: "51" } },
    ]);
  });

  test("over max_result_bytes: ResultTooLarge with a limit that fits, never truncated", async () => {
    const e = await bridge.call("completion", { file: "b.many", line: 1, column: 1, limit: 60 });
    expect(e.isError).toBe(true);
    const env = e.structured as { code: string; details: { count: number; limit: number } };
    expect(env.code).toBe("ResultTooLarge");
    expect(env.details.count).toBe(60);
    const fits = await bridge.call("completion", {
      file: "b.many",
      line: 1,
      column: 1,
      limit: env.details.limit,
    });
    expect(fits.isError).toBe(false);
    expect(Buffer.byteLength(fits.text)).toBeLessThanOrEqual(2600);
  });

  test("advertised: no snippets, documentation resolved lazily, label details, label offsets", async () => {
    const init = fake.records().find((m) => m.method === "initialize") as
      | { params: { capabilities: { textDocument: Record<string, unknown> } } }
      | undefined;
    expect(init?.params.capabilities.textDocument).toMatchObject({
      completion: {
        completionItem: {
          snippetSupport: false,
          resolveSupport: { properties: ["documentation"] },
          labelDetailsSupport: true,
        },
        contextSupport: true,
      },
      signatureHelp: {
        signatureInformation: { parameterInformation: { labelOffsetSupport: true } },
        contextSupport: true,
      },
    });
  });

  test("resolve outside 0..20: InvalidArgument before the server is asked", async () => {
    const e = await bridge.call("completion", { ...AT, resolve: 21 });
    expect((e.structured as { code: string }).code).toBe("InvalidArgument");
  });
});

describe("signature_help", () => {
  test("the position and an invoked, first context; parameter offsets as text", async () => {
    const r = await bridge.call("signature_help", AT);
    expect(r.structured).toEqual({
      signatures: [{ label: "area(🎯 k: number)", parameters: [{ label: "🎯 k: number" }] }],
      active_signature: 0,
      active_parameter: 0,
    });
    expect(fake.requests("textDocument/signatureHelp").at(-1)?.params).toEqual({
      textDocument: { uri: ws.uri("a.fake") },
      position: { line: 0, character: 11 },
      context: { triggerKind: 1, isRetrigger: false },
    });
  });
});

describe("fault paths", () => {
  test("a server without the provider: ServerLacksCapability", async () => {
    for (const [tool, method] of [
      ["completion", "textDocument/completion"],
      ["signature_help", "textDocument/signatureHelp"],
    ] as const) {
      const e = await bridge.call(tool, { file: "c.plain", line: 1, column: 1 });
      expect(e.structured).toMatchObject({
        code: "ServerLacksCapability",
        details: { server: "plain", method },
      });
    }
  });

  test("a malformed answer: ServerError naming the method, and the session lives on", async () => {
    const c = await bridge.call("completion", { file: "d.bad", line: 1, column: 1 });
    expect(c.structured).toMatchObject({
      code: "ServerError",
      details: { server: "bad", method: "textDocument/completion" },
    });
    const s = await bridge.call("signature_help", { file: "d.bad", line: 1, column: 1 });
    expect(s.structured).toMatchObject({
      code: "ServerError",
      details: { server: "bad", method: "textDocument/signatureHelp" },
    });
  });

  test("a resolve the server refuses: the item as it came, with its own documentation", async () => {
    const r = await bridge.call("completion", { file: "e.refuse", line: 1, column: 1, resolve: 1 });
    expect(r.structured.items).toEqual([{ label: "x", insert: "x", documentation: "own" }]);
    expect(refuse.requests("completionItem/resolve").length).toBe(1);
  });

  test("a server that publishes per version is asked once it published for the document", async () => {
    // this one publishes 300 ms after the open: completion is asked after that publish
    const events = refuse.state().events;
    const published = events.findIndex((e) => e.method === "textDocument/publishDiagnostics");
    const asked = events.findIndex((e) => e.method === "textDocument/completion");
    expect(published).toBeGreaterThanOrEqual(0);
    expect(asked).toBeGreaterThan(published);
    // a server that is no diagnostics server is not waited for
    const q = await bridge.call("completion", { file: "f.quiet", line: 1, column: 1 });
    expect(q.structured.items).toEqual([{ label: "q", insert: "q" }]);
  });
});
