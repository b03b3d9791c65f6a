/**
 * The constant-memory scan of a message over the limit (SPEC §4.8): its top-level id /
 * method / response facts, however the bytes are chunked.
 */
import { describe, expect, test } from "bun:test";
import { TopLevelScanner } from "../../../../src/mcp/transport/oversize-scan.ts";

const enc = new TextEncoder();

function facts(text: string, chunk = 0) {
  const scanner = new TopLevelScanner();
  const bytes = enc.encode(text);
  const step = chunk === 0 ? bytes.length : chunk;
  for (let i = 0; i < bytes.length; i += step) scanner.feed(bytes.slice(i, i + step));
  return scanner.facts();
}

describe("TopLevelScanner", () => {
  const big = `"${"x".repeat(300)}"`;
  test("finds the top-level id wherever it is, for every chunking", () => {
    const cases: [string, ReturnType<typeof facts>][] = [
      [
        `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"a":${big}}}`,
        { id: 42, hasMethod: true, isResponse: false },
      ],
      [
        `{"method":"tools/call","params":{"id":1,"t":"\\"id\\":7"},"id":"req-9"}`,
        { id: "req-9", hasMethod: true, isResponse: false },
      ],
      [`{ "id" : 3 , "method" : "x" }`, { id: 3, hasMethod: true, isResponse: false }],
      [
        `{"method":"notifications/x","params":{"id":5}}`,
        { id: undefined, hasMethod: true, isResponse: false },
      ],
      [`{"jsonrpc":"2.0","id":8,"result":{"id":1}}`, { id: 8, hasMethod: false, isResponse: true }],
      [`{"id":"a\\"b","method":"m"}`, { id: 'a"b', hasMethod: true, isResponse: false }],
      [`{"id":1.5,"method":"m"}`, { id: null, hasMethod: true, isResponse: false }],
      [`{"id":{"a":[1,{"b":2}]},"method":"m"}`, { id: null, hasMethod: true, isResponse: false }],
      [`{"id":${big},"method":"m"}`, { id: null, hasMethod: true, isResponse: false }],
      [
        `{"a":"q\\\\","b":"\\"id\\":1","id":3,"method":"m"}`,
        { id: 3, hasMethod: true, isResponse: false },
      ],
      [`{"methodx":1,"idx":2}`, { id: undefined, hasMethod: false, isResponse: false }],
      [`[{"id":1,"method":"m"}]`, { id: undefined, hasMethod: false, isResponse: false }],
      [
        `{"id":12,"method":"m","params":{"x":"unterminated`,
        { id: 12, hasMethod: true, isResponse: false },
      ],
    ];
    for (const [text, expected] of cases) {
      for (const chunk of [0, 1, 2, 3, 7]) expect(facts(text, chunk)).toEqual(expected);
    }
  });

  test("scans 50 MB without keeping it", () => {
    const scanner = new TopLevelScanner();
    const chunk = enc.encode(`"${"y".repeat(65_530)}",`);
    scanner.feed(enc.encode('{"jsonrpc":"2.0","method":"tools/call","params":{"a":['));
    const t0 = performance.now();
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) scanner.feed(chunk);
    scanner.feed(enc.encode('"z"]},"id":77}'));
    const ms = performance.now() - t0;
    expect(scanner.facts()).toEqual({ id: 77, hasMethod: true, isResponse: false });
    console.log(`scanned 50 MB in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(60_000); // a hang bound: work that grew with what was seen would not end
  });
});
