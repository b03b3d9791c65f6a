/**
 * What a JSON text would parse into, from its bytes (src/json-bounds.ts, SPEC §4.8, §8.2):
 * depth, arrays and objects, values, distinct object shapes and keys — brackets, commas
 * and quotes inside strings never count, escaped quotes included; the scan stops at the
 * first bound passed and stays linear; the servers' largest legitimate answers fit.
 */
import { describe, expect, test } from "bun:test";
import { exceeds, excessText, type JsonBounds, JsonScan, scanned } from "../../src/json-bounds.ts";
import { SERVER_JSON_BOUNDS } from "../../src/lsp/message-reader.ts";
import { CLIENT_JSON_BOUNDS } from "../../src/mcp/transport/stdio.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const over = (s: string, b: JsonBounds) => exceeds(bytes(s), b)?.bound;
/** small count bounds, so that short texts are counted */
const SMALL: JsonBounds = { containers: 4, values: 8, shapes: 3 };
const loose = (b: Partial<JsonBounds>): JsonBounds => ({
  containers: 1e9,
  values: 1e9,
  shapes: 1e9,
  ...b,
});

describe("depth", () => {
  test("objects and arrays count; brackets in strings do not", () => {
    const depth3 = loose({ depth: 3 });
    expect(over('{"a":[{"b":1}]}', depth3)).toBeUndefined();
    expect(over('{"a":[{"b":[1]}]}', depth3)).toBe("depth");
    expect(over(`{"a":"${"[".repeat(100)}"}`, depth3)).toBeUndefined();
    expect(over(String.raw`{"a":"\"[[[[","b":"\\"}`, loose({ depth: 1 }))).toBeUndefined();
    expect(over(String.raw`{"a":"\\",  "b":[[[1]]]}`, depth3)).toBe("depth");
  });

  test("without a depth bound, any depth passes", () => {
    expect(over(`${"[".repeat(5000)}${"]".repeat(5000)}`, loose({}))).toBeUndefined();
  });
});

describe("counts", () => {
  test("arrays and objects: one each, whatever they hold", () => {
    expect(over("[[],{},[]]", { ...SMALL, values: 99 })).toBeUndefined();
    expect(over("[[],{},[],{}]", { ...SMALL, values: 99 })).toBe("containers");
  });

  test("values: elements and members, from the commas and brackets", () => {
    // root 1 + the array's first element 1 + 6 commas = 8
    expect(over("[1,2,3,4,5,6,7]", SMALL)).toBeUndefined();
    expect(over("[1,2,3,4,5,6,7,8]", SMALL)).toBe("values");
    expect(over('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}', { ...SMALL, shapes: 99 })).toBe(
      undefined,
    );
    expect(over('["1,2,3,4,5,6,7,8,9"]', SMALL)).toBeUndefined();
  });

  test("shapes: each new key order among an object's first keys, each new key past them", () => {
    const b = loose({ shapes: 3 });
    // {a}, {a,b}: prefixes "a" and "a,b"; repeated objects add nothing
    expect(over('[{"a":1,"b":2},{"a":1,"b":2},{"a":3}]', b)).toBeUndefined();
    // "b" first is a new shape, and "b,a" another: 4
    expect(over('[{"a":1,"b":2},{"b":1,"a":2}]', b)).toBe("shapes");
    // distinct keys in distinct objects
    expect(over('[{"a":1},{"b":1},{"c":1}]', b)).toBeUndefined();
    expect(over('[{"a":1},{"b":1},{"c":1},{"d":1}]', b)).toBe("shapes");
    // string values, and strings in arrays, are no keys; nested objects are shapes of their own
    expect(over('{"a":"b","c":["d","e","f","g"]}', b)).toBeUndefined();
    expect(over('{"a":{"a":{"a":1}}}', b)).toBeUndefined();
    // a key is its bytes: "ab","c" is not "a","bc"
    expect(over('[{"ab":1,"c":2},{"a":1,"bc":2}]', loose({ shapes: 3 }))).toBe("shapes");
  });

  test("past 64 keys an object counts each distinct key once, not each order", () => {
    const many = (from: number, n: number) =>
      `{${Array.from({ length: n }, (_, i) => `"k${from + i}":0`).join(",")}}`;
    // 64 prefixes + 36 keys past them
    expect(over(many(0, 100), loose({ shapes: 100 }))).toBeUndefined();
    expect(over(many(0, 101), loose({ shapes: 100 }))).toBe("shapes");
    // the same 100 keys again in a second object: its first 64 are prefixes already known
    expect(over(`[${many(0, 100)},${many(0, 100)}]`, loose({ shapes: 100 }))).toBeUndefined();
  });

  test("a text shorter than the smallest count bound is not counted", () => {
    const b: JsonBounds = { containers: 1000, values: 5000, shapes: 1000 };
    expect(over(`[${"{},".repeat(300)}{}]`, b)).toBeUndefined(); // 903 bytes
    expect(over(`[${"{},".repeat(1000)}{}]`, b)).toBe("containers");
  });

  test("only a text long enough for more keys than the shapes bound is counted", () => {
    // the densest keys: each its two quotes and the `{` or `,` before it (a new prefix of
    // the object's keys each, so a new shape each)
    const dense = (n: number) => `{${Array.from({ length: n }, () => '""').join(",")}}`;
    const b = loose({ shapes: 10 });
    expect(dense(11).length).toBe(3 * 11 + 1);
    expect(over(dense(11), b)).toBe("shapes");
    expect(over(dense(10), b)).toBeUndefined();
    // shorter than 3 × the bound: not scanned at all
    expect(scanned(b, 3 * 10 - 1)).toBe(false);
    expect(scanned(b, 3 * 10)).toBe(true);
  });

  test("the refusal names the bound and its value", () => {
    const text = (bound: "depth" | "containers" | "values" | "shapes") =>
      excessText({ bound, limit: 7 });
    expect(text("depth")).toBe("nests deeper than 7 levels of arrays and objects");
    expect(text("containers")).toBe("holds more than 7 arrays and objects");
    expect(text("values")).toContain("holds more than 7 values");
    expect(text("shapes")).toBe("holds more than 7 distinct object shapes and keys");
  });
});

describe("fed in pieces", () => {
  const texts: [string, JsonBounds][] = [
    [String.raw`{"a\"b":1,"c":"x\\","d":[{}],"a\"b":{"a\"b":2}}`, loose({ shapes: 3 })],
    [String.raw`[{"k":"]\"},{"k":""["},{"l":1},{"m":[]},{"n":{}}]`, loose({ shapes: 3 })],
    [String.raw`[{"a":1}, {"a":2} ,{"b" : 3},{ } , [ ] ,"\",7]`, loose({ values: 8 })],
    [`{"${"k".repeat(300)}":1,"${"k".repeat(300)}":2}`, loose({ shapes: 1 })],
    [`[${"[".repeat(5)}${"]".repeat(5)},{}]`, loose({ containers: 6 })],
    [`[${"[".repeat(5)}${"]".repeat(5)}]`, { ...loose({}), depth: 5 }],
  ];

  test("cut anywhere — in strings, escapes, keys, whitespace — the result is the whole text's", () => {
    for (const [text, b] of texts) {
      const whole = bytes(text);
      const expected = new JsonScan(b, whole.length).feed(whole)?.bound;
      for (let cut = 0; cut <= whole.length; cut++) {
        for (const second of [
          cut,
          Math.min(whole.length, cut + 1),
          Math.min(whole.length, cut + 3),
        ]) {
          const scan = new JsonScan(b, whole.length);
          scan.feed(whole.subarray(0, cut));
          scan.feed(whole.subarray(cut, second));
          const got = scan.feed(whole.subarray(second))?.bound;
          expect(got, `${text} cut at ${cut} and ${second}`).toBe(expected);
        }
      }
    }
  });

  test("each test text passes its bound as a whole (the cuts above compare something)", () => {
    const passed = texts.map(([text, b]) => new JsonScan(b, 1e9).feed(bytes(text))?.bound);
    expect(passed).toEqual(["shapes", "shapes", "values", "shapes", "containers", "depth"]);
  });
});

describe("the bounds in use", () => {
  const loc = (i: number) =>
    `{"uri":"file:///project/src/file${i % 500}.ts","range":{"start":{"line":${i},"character":4},"end":{"line":${i},"character":9}}}`;
  const diagnostic = (i: number) =>
    `{"range":{"start":{"line":${i},"character":4},"end":{"line":${i},"character":9}},"severity":1,"code":2322,"source":"ts","message":"Type 'string' is not assignable to type 'number'.","relatedInformation":[],"tags":[1]}`;
  const list = (n: number, item: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => item(i)).join(",");

  test("a server's 100,000 locations and 100,000 diagnostics fit", () => {
    const references = `{"jsonrpc":"2.0","id":1,"result":[${list(100_000, loc)}]}`;
    const publish = `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a.ts","diagnostics":[${list(100_000, diagnostic)}]}}`;
    expect(over(references, SERVER_JSON_BOUNDS)).toBeUndefined();
    expect(over(publish, SERVER_JSON_BOUNDS)).toBeUndefined();
  });

  test("wide and many-keyed servers' texts are refused, each at its bound", () => {
    const { containers, values, shapes } = SERVER_JSON_BOUNDS;
    expect(over(`[${"{},".repeat(containers)}{}]`, SERVER_JSON_BOUNDS)).toBe("containers");
    expect(over(`[${"0,".repeat(values)}0]`, SERVER_JSON_BOUNDS)).toBe("values");
    const keys = `{${list(shapes + 1, (i) => `"k${i}":0`)}}`;
    expect(over(keys, SERVER_JSON_BOUNDS)).toBe("shapes");
    const objects = `[${list(shapes + 1, (i) => `{"k${i}":0}`)}]`;
    expect(over(objects, SERVER_JSON_BOUNDS)).toBe("shapes");
  });

  test("a client's tool call passes; its bounds are smaller", () => {
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"references","arguments":{"file":"src/a.ts","line":3,"column":7}}}`;
    expect(over(call, CLIENT_JSON_BOUNDS)).toBeUndefined();
    expect(over(`[${"[],".repeat(CLIENT_JSON_BOUNDS.containers)}[]]`, CLIENT_JSON_BOUNDS)).toBe(
      "containers",
    );
  });
});

// a quadratic scan of 32 MiB would take hours: the bound tells linear from it on a loaded machine
test("linear: 32 MiB of strings full of escapes, of numbers and of brackets, in seconds", () => {
  const escapes = bytes(`{"a":"${'\\"['.repeat(8 << 20)}"}`);
  const numbers = bytes(`[${"1234567,".repeat(4 << 20)}1]`);
  const brackets = bytes("[".repeat(32 << 20));
  const t0 = performance.now();
  expect(exceeds(escapes, SERVER_JSON_BOUNDS)).toBeUndefined();
  expect(exceeds(numbers, SERVER_JSON_BOUNDS)?.bound).toBe("values");
  expect(exceeds(brackets, SERVER_JSON_BOUNDS)?.bound).toBe("containers");
  expect(exceeds(brackets, CLIENT_JSON_BOUNDS)?.bound).toBe("depth");
  expect(performance.now() - t0).toBeLessThan(30_000);
});
