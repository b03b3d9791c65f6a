import { describe, expect, test } from "bun:test";
import {
  BridgeLines,
  ClientLines,
  KEPT_LINE_BYTES,
  RelayBook,
} from "../../../src/daemon/relay-book.ts";
import { bridgeExited } from "../../../src/daemon/shared-errors.ts";

const bytes = (s: string) => Buffer.from(s, "utf8");
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
const line = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;

/** Every line of `input` described, as ClientLines sees it in the given pieces. */
function describeLines(...chunks: string[]) {
  const lines = new ClientLines();
  return chunks
    .flatMap((c) => lines.push(bytes(c)))
    .filter((p) => p.end !== undefined)
    .map((p) => p.end);
}

describe("ClientLines", () => {
  test("pieces are the input unchanged, a line's first piece marked, each line described at its end", () => {
    const lines = new ClientLines();
    const input = `${line({ id: 1, method: "initialize" })}${line({ method: "notifications/initialized" })}{"id":`;
    const pieces = [...lines.push(bytes(input)), ...lines.push(bytes('"x","method":"ping"}\n'))];
    expect(pieces.map((p) => text(p.bytes)).join("")).toBe(`${input}"x","method":"ping"}\n`);
    expect(pieces.map((p) => p.first)).toEqual([true, true, true, false]);
    expect(pieces.map((p) => p.end?.answers)).toEqual([[1], [], undefined, ["x"]]);
    expect(pieces[0]?.end?.message?.method).toBe("initialize");
  });

  test("a line over the bridge's message limit is still described by its id, unparsed", () => {
    const big = line({ id: 9, method: "tools/call", params: { pad: "x".repeat(KEPT_LINE_BYTES) } });
    const [info] = describeLines(big.slice(0, 100), big.slice(100));
    expect(info).toEqual({ answers: [9], message: undefined });
  });

  // the bridge's transport answers these with `id: null` or not at all (mcp/transport/stdio.ts)
  test.each([
    ["cut-off JSON", '{"jsonrpc":"2.0","id":51,"method":"ping"'],
    ["a notification", '{"jsonrpc":"2.0","method":"notifications/x"}'],
    ["a response", '{"jsonrpc":"2.0","id":4,"result":{}}'],
    ["an id that is an object", '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'],
    ["a blank line", "   "],
    ["not an object", "[]"],
  ])("%s is not waited for", (_what, text) => {
    expect(describeLines(`${text}\n`).map((info) => info?.answers)).toEqual([[]]);
  });

  test.each([
    ["a request", '{"jsonrpc":"2.0","id":5,"method":"ping"}', [5]],
    ["an invalid request with an id", '{"jsonrpc":"1.0","id":"x","method":"ping"}', ["x"]],
    ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"}]', [1]],
    [
      "a line past the JSON bounds",
      `{"jsonrpc":"2.0","id":8,"method":"m","params":${"[".repeat(200)}${"]".repeat(200)}}`,
      [8],
    ],
  ])("%s is answered by id", (_what, text, ids) => {
    expect(describeLines(`${text}\n`)[0]?.answers).toEqual(ids);
  });
});

describe("BridgeLines", () => {
  test("whole lines only, across chunks; a reset forgets a cut line", () => {
    const lines = new BridgeLines();
    expect(lines.push(bytes('{"a":1}\n{"b"')).map(text)).toEqual(['{"a":1}']);
    expect(lines.push(bytes(":2}\n")).map(text)).toEqual(['{"b":2}']);
    lines.push(bytes('{"cut'));
    lines.reset();
    expect(lines.push(bytes('{"c":3}\n')).map(text)).toEqual(['{"c":3}']);
  });
});

const sent = (book: RelayBook, ...messages: Record<string, unknown>[]) => {
  for (const info of describeLines(...messages.map(line))) if (info) book.sent(info);
};

describe("RelayBook (SPEC §2.2)", () => {
  test("requests in flight are answered typed when the bridge is lost: a tool error for tools/call", () => {
    const book = new RelayBook();
    sent(
      book,
      { id: 1, method: "initialize", params: {} },
      { id: 2, method: "tools/call", params: {} },
      { id: "p", method: "ping" },
    );
    expect(book.received(bytes(line({ id: 1, result: {} })))).toBe(true);
    expect(book.waiting).toBe(2);
    const lost = book.lost(bridgeExited()).map((l) => JSON.parse(l));
    expect(lost[0]).toMatchObject({ id: 2, result: { isError: true } });
    expect(JSON.parse(lost[0].result.content[0].text)).toMatchObject({ code: "SessionDead" });
    expect(lost[1]).toMatchObject({
      id: "p",
      error: { code: -32603, data: { code: "SessionDead" } },
    });
    expect(book.waiting).toBe(0);
    expect(book.lost(bridgeExited())).toEqual([]);
  });

  test("a cancelled request is no longer waited for", () => {
    const book = new RelayBook();
    sent(
      book,
      { id: 3, method: "tools/call" },
      { method: "notifications/cancelled", params: { requestId: 3 } },
    );
    expect(book.waiting).toBe(0);
  });

  test("the handshake is replayed under the relay's id once it was answered, and its answer dropped", () => {
    const book = new RelayBook();
    sent(book, { id: 1, method: "initialize", params: { clientInfo: { name: "c" } } });
    expect(book.replay()).toEqual([]); // not answered yet: nothing to replay
    book.received(bytes(line({ id: 1, result: {} })));
    sent(book, { method: "notifications/initialized" });
    const replay = book.replay().map((l) => JSON.parse(l));
    expect(replay).toEqual([
      {
        jsonrpc: "2.0",
        id: "theodolite-relay-1",
        method: "initialize",
        params: { clientInfo: { name: "c" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(book.received(bytes(line({ id: "theodolite-relay-1", result: {} })))).toBe(false);
    // notifications and the client's own answers pass
    expect(book.received(bytes(line({ method: "notifications/progress" })))).toBe(true);
    expect(book.received(bytes(line({ id: 1, result: {} })))).toBe(true);
  });

  test("a request cut off with its bridge is answered; a notification or a line it answers with id null is not", () => {
    const book = new RelayBook();
    const [req, note, cut] = describeLines(
      line({ id: 7, method: "tools/call" }),
      line({ method: "x" }),
      '{"jsonrpc":"2.0","id":8,"method":"ping"\n',
    );
    const answers = book.cutOff(req as never, bridgeExited()).map((l) => JSON.parse(l));
    expect(answers).toMatchObject([{ id: 7, result: { isError: true } }]);
    expect(book.cutOff(note as never, bridgeExited())).toEqual([]);
    expect(book.cutOff(cut as never, bridgeExited())).toEqual([]);
  });

  test("a line the bridge answers with id null leaves nothing waiting: the relay adds nothing at the end", () => {
    const book = new RelayBook();
    for (const info of describeLines('{"jsonrpc":"2.0","id":51,"method":"ping"\n'))
      if (info) book.sent(info);
    expect(
      book.received(bytes('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}')),
    ).toBe(true);
    expect(book.waiting).toBe(0);
    expect(book.lost(bridgeExited())).toEqual([]);
  });
});
