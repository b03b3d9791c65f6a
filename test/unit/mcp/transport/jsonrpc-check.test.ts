/**
 * The transport's structural JSON-RPC check (SPEC §4.8) against the MCP SDK's
 * own `JSONRPCMessageSchema`: on a seeded corpus of valid messages and their
 * mutations, the check delivers exactly what the schema accepts (so no request
 * reaches the SDK's dispatch unrecognized, and none is refused that it would
 * take), and every refused message with an id is answered -32600 with that id.
 */
import { describe, expect, test } from "bun:test";
import { JSONRPCMessageSchema, RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
import { checkMessage } from "../../../../src/mcp/transport/jsonrpc-check.ts";
import { Prng } from "../../../support/prng.ts";

const VALID: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/list" },
  { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "hover", arguments: {} } },
  { jsonrpc: "2.0", id: 0, method: "ping", params: {} },
  { jsonrpc: "2.0", id: 7, method: "x", params: { _meta: { progressToken: "t" } } },
  { jsonrpc: "2.0", id: 8, method: "x", params: { _meta: { progressToken: 3, other: 1 } } },
  {
    jsonrpc: "2.0",
    id: 9,
    method: "x",
    params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: "t1" } } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } },
  { jsonrpc: "2.0", id: 4, result: {} },
  { jsonrpc: "2.0", id: 4, result: { _meta: { progressToken: 1 }, x: [1] } },
  { jsonrpc: "2.0", id: 5, error: { code: -32601, message: "nope" } },
  { jsonrpc: "2.0", error: { code: -32601, message: "nope", data: { a: 1 } } },
];

/** Values that break one member or another. */
const ODD: unknown[] = [
  null,
  undefined,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  "",
  "2.0",
  "1.0",
  [],
  [1],
  {},
  { a: 1 },
  { _meta: 5 },
  { _meta: { progressToken: 1.5 } },
  { _meta: { progressToken: null } },
  { _meta: { [RELATED_TASK_META_KEY]: {} } },
  { _meta: { [RELATED_TASK_META_KEY]: { taskId: 1 } } },
  { code: "x", message: "m" },
  { code: 1, message: 2 },
  { code: 1.5, message: "m" },
];

const KEYS = ["jsonrpc", "id", "method", "params", "result", "error", "extra", "__proto__"];

function clone(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

/** One random mutation: change, drop or add a member, at the top or one level down. */
function mutate(base: unknown, rand: Prng): unknown {
  const pick = <T>(xs: readonly T[]): T => rand.pick(xs);
  const msg = clone(base) as Record<string, unknown>;
  let target: Record<string, unknown> = msg;
  const nested = Object.values(msg).filter(
    (v): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v),
  );
  if (nested.length > 0 && rand.chance(0.4)) target = pick(nested);
  const keys = Object.keys(target);
  const r = rand.next();
  if (r < 0.35 && keys.length > 0) delete target[pick(keys)];
  else if (r < 0.7 && keys.length > 0) target[pick(keys)] = clone(pick(ODD));
  else
    target[target === msg ? pick(KEYS) : pick(["_meta", "name", "x", "taskId"])] = clone(pick(ODD));
  return rand.chance(0.05) ? [msg] : msg;
}

describe("checkMessage", () => {
  test("delivers exactly what the SDK's JSONRPCMessageSchema accepts (seeded corpus)", () => {
    const rand = new Prng(20261130);
    const corpus: unknown[] = [...VALID, ...ODD];
    for (let i = 0; i < 20_000; i++) {
      let m = rand.pick(VALID);
      const depth = rand.int(1, 3);
      for (let d = 0; d < depth; d++) m = mutate(m, rand);
      corpus.push(m);
    }
    let delivered = 0;
    for (const value of corpus) {
      // what the transport sees comes from JSON.parse
      const parsed = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
      const sdk = JSONRPCMessageSchema.safeParse(parsed).success;
      const ours = checkMessage(parsed).kind === "deliver";
      if (ours !== sdk) throw new Error(`disagree (sdk ${sdk}): ${JSON.stringify(parsed)}`);
      if (ours) delivered++;
    }
    // the corpus exercises both sides
    expect(delivered).toBeGreaterThan(1000);
    expect(corpus.length - delivered).toBeGreaterThan(1000);
  });

  test("an invalid request with an id is answered -32600 with that id", () => {
    for (const msg of [
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: [1, 2] },
      { jsonrpc: "1.0", id: 3, method: "tools/list" },
      { id: 3, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: 5 },
      { jsonrpc: "2.0", id: 3, method: "x", params: null },
      { jsonrpc: "2.0", id: 3, method: "x", extra: true },
      { jsonrpc: "2.0", id: 3 },
    ]) {
      const c = checkMessage(msg);
      expect(c.kind).toBe("refuse");
      if (c.kind !== "refuse") continue;
      expect(c.replies).toEqual([
        {
          jsonrpc: "2.0",
          id: 3,
          error: { code: -32600, message: expect.stringContaining("Invalid Request") },
        },
      ]);
    }
  });

  test("an id that is not a string or an integer is answered with id null", () => {
    for (const id of [1.5, null, { a: 1 }, [1], true]) {
      const c = checkMessage({ jsonrpc: "2.0", id, method: "tools/list" });
      expect(c.kind).toBe("refuse");
      if (c.kind === "refuse") expect(c.replies[0]?.id).toBeNull();
    }
  });

  test("non-objects are answered with id null; invalid notifications and responses are ignored", () => {
    for (const v of [5, "x", null, true]) {
      const c = checkMessage(v);
      expect(c.kind).toBe("refuse");
      if (c.kind === "refuse") expect(c.replies).toHaveLength(1);
    }
    expect(checkMessage({ jsonrpc: "2.0", method: "n", params: [1] }).kind).toBe("ignore");
    expect(checkMessage({ jsonrpc: "1.0", method: "n" }).kind).toBe("ignore");
    expect(checkMessage({ jsonrpc: "2.0", id: 1, result: 5 }).kind).toBe("ignore");
    expect(checkMessage({ jsonrpc: "2.0", id: 1, error: { code: "x" } }).kind).toBe("ignore");
  });

  test("a batch: each member with an id is refused with its id, notifications get nothing", () => {
    const c = checkMessage([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: "b", method: "ping" },
      5,
    ]);
    expect(c.kind).toBe("refuse");
    if (c.kind !== "refuse") return;
    expect(c.replies.map((r) => r.id)).toEqual([1, "b", null]);
    for (const r of c.replies) expect(r.error.code).toBe(-32600);
    const empty = checkMessage([]);
    expect(empty.kind === "refuse" && empty.replies.map((r) => r.id)).toEqual([null]);
  });
});
