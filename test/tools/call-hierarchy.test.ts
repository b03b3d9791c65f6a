/**
 * call_hierarchy (SPEC §4.1, §4.3) against canned fake answers: prepare at the position,
 * then one level of incoming or outgoing calls, in canonical order, paged;
 * ServerLacksCapability without the provider or without the direction.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";
import { range } from "../support/normalize-context.ts";

const ws = workspace({
  "main.fake": "fn main() {\n  run(); run();\n}\n",
  "lib.fake": "fn run() {\n  helper();\n}\nfn other() { run(); }\n\nfn helper() {}\n",
  "none.fake": "nothing here\n",
});
const [MAIN, LIB] = [ws.uri("main.fake"), ws.uri("lib.fake")];

function item(name: string, uri: string, line: number, from: number, to: number) {
  return {
    name,
    kind: 12,
    uri,
    range: lspRange(line, 0, to + 2),
    selectionRange: lspRange(line, from, to),
  };
}
const RUN = item("run", LIB, 0, 3, 6);

const fake = new FakeProbe("fake");
const noOutgoing = new FakeProbe("partial");
const plain = new FakeProbe("plain");
const SERVERS = [
  fake.server({
    capabilities: { textDocumentSync: 1, callHierarchyProvider: true },
    responses: {
      "textDocument/prepareCallHierarchy": [RUN],
      "callHierarchy/incomingCalls": [
        { from: item("other", LIB, 3, 3, 8), fromRanges: [lspRange(3, 13, 16)] },
        { from: item("main", MAIN, 0, 3, 7), fromRanges: [lspRange(1, 9, 12), lspRange(1, 2, 5)] },
      ],
      "callHierarchy/outgoingCalls": [
        { to: item("helper", LIB, 5, 3, 9), fromRanges: [lspRange(1, 2, 8)] },
      ],
    },
  }),
  noOutgoing.server(
    {
      capabilities: { textDocumentSync: 1, callHierarchyProvider: true },
      responses: { "textDocument/prepareCallHierarchy": null },
    },
    { extensions: { part: "fake" } },
  ),
  plain.server({ capabilities: { textDocumentSync: 1 } }, { extensions: { plain: "fake" } }),
];

let bridge: BridgeHandle;
beforeAll(async () => {
  ws.write("a.part", "x\n");
  ws.write("a.plain", "x\n");
  ({ bridge } = await bridgeFor({ ws, servers: SERVERS }));
});
afterAll(closeBridgesAndTempDirs);

const at = { file: "lib.fake", line: 1, symbol: "run" };
const RUN_OUT = {
  name: "run",
  kind: "function",
  file: "lib.fake",
  ...range(1, 4, 1, 7),
};

describe("call_hierarchy", () => {
  test("incoming: each caller at its name, with the call sites in its file, canonical order", async () => {
    const r = await bridge.call("call_hierarchy", { ...at, direction: "incoming" });
    expect(r.structured).toEqual({
      item: RUN_OUT,
      calls: [
        {
          name: "other",
          kind: "function",
          file: "lib.fake",
          ...range(4, 4, 4, 9),
          sites: [{ line: 4, column: 14, end_line: 4, end_column: 17 }],
        },
        {
          name: "main",
          kind: "function",
          file: "main.fake",
          ...range(1, 4, 1, 8),
          sites: [
            { line: 2, column: 3, end_line: 2, end_column: 6 },
            { line: 2, column: 10, end_line: 2, end_column: 13 },
          ],
        },
      ],
      total: 2,
    });
    const prepared = fake.requests("textDocument/prepareCallHierarchy").at(-1)?.params;
    expect(prepared).toEqual({ textDocument: { uri: LIB }, position: { line: 0, character: 3 } });
    // the item goes back to the server exactly as it came
    expect(fake.requests("callHierarchy/incomingCalls").at(-1)?.params).toEqual({ item: RUN });
  });

  test("outgoing: each callee, the sites in the item's file; paged", async () => {
    const r = await bridge.call("call_hierarchy", { ...at, direction: "outgoing" });
    expect(r.structured.calls).toEqual([
      {
        name: "helper",
        kind: "function",
        file: "lib.fake",
        ...range(6, 4, 6, 10),
        sites: [{ line: 2, column: 3, end_line: 2, end_column: 9 }],
      },
    ]);
    const page = await bridge.call("call_hierarchy", {
      ...at,
      direction: "incoming",
      limit: 1,
      offset: 0,
    });
    expect((page.structured.calls as { name: string }[]).map((c) => c.name)).toEqual(["other"]);
    expect(page.structured.next_offset).toBe(1);
    expect(page.structured.total).toBe(2);
  });

  test("nothing callable at the position: item null, no calls", async () => {
    const r = await bridge.call("call_hierarchy", {
      file: "a.part",
      line: 1,
      column: 1,
      direction: "incoming",
    });
    expect(r.structured).toEqual({ item: null, calls: [], total: 0 });
  });

  test("a server without call hierarchy: ServerLacksCapability", async () => {
    const r = await bridge.call("call_hierarchy", {
      file: "a.plain",
      line: 1,
      column: 1,
      direction: "outgoing",
    });
    expect(r.structured.code).toBe("ServerLacksCapability");
    expect(r.structured.details).toEqual({
      server: "plain",
      method: "textDocument/prepareCallHierarchy",
    });
  });

  test("limit 0 or a negative offset is InvalidArgument before any server is asked, even where nothing is callable", async () => {
    const bad = [
      [{ limit: 0 }, "limit must be within 1..200, got 0", { limit: 0, max_limit: 200 }],
      [{ offset: -3 }, "offset must be 0 or more, got -3", { offset: -3 }],
    ] as const;
    for (const [paging, message, details] of bad) {
      for (const file of ["a.part", "a.plain"]) {
        const r = await bridge.call("call_hierarchy", {
          file,
          line: 1,
          column: 1,
          direction: "incoming",
          ...paging,
        });
        expect([file, r.structured.code, r.structured.message]).toEqual([
          file,
          "InvalidArgument",
          message,
        ]);
        expect(r.structured.details).toEqual(details);
      }
    }
  });

  test("direction is required and checked", async () => {
    const missing = await bridge.call("call_hierarchy", at);
    expect(missing.structured.code).toBe("InvalidArgument");
    const wrong = await bridge.call("call_hierarchy", { ...at, direction: "up" });
    expect(wrong.structured.code).toBe("InvalidArgument");
  });
});

describe("call_hierarchy with a direction the server lacks", () => {
  test("MethodNotFound for outgoingCalls is ServerLacksCapability", async () => {
    const probe = new FakeProbe("nodir");
    const one = workspace({ "lib.fake": "fn run() {}\n" });
    const { bridge: b } = await bridgeFor({
      ws: one,
      servers: [
        probe.server({
          capabilities: { textDocumentSync: 1, callHierarchyProvider: true },
          responses: {
            "textDocument/prepareCallHierarchy": [item("run", one.uri("lib.fake"), 0, 3, 6)],
          },
          error_on: { "callHierarchy/outgoingCalls": { code: -32601, message: "unhandled" } },
        }),
      ],
    });
    const r = await b.call("call_hierarchy", { ...at, direction: "outgoing" });
    expect(r.structured.code).toBe("ServerLacksCapability");
    expect(r.structured.details).toEqual({
      server: "nodir",
      method: "callHierarchy/outgoingCalls",
    });
  });
});
