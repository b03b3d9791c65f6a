/**
 * Seeded random MCP tool arguments for the fuzz test: mostly plausible values by argument
 * name (files inside and outside the root, FIFOs, odd positions, odd names), mutated
 * types, missing required keys, unknown keys, plain junk objects, and `arguments` that are
 * no object at all (null, arrays, scalars: InvalidArgument, never a JSON-RPC error); and
 * whole `tools/call` lines carrying wide, many-keyed or deep JSON (`wideCall`).
 */
import { COSTLY_SHAPES, shapedJson } from "../fake-server/hostile-plan.ts";
import type { Prng } from "../support/prng.ts";

export interface ToolSchema {
  name: string;
  inputSchema: { properties?: Record<string, unknown>; required?: string[] };
}

export interface FuzzContext {
  files: string[];
  /** handles seen in code_actions answers so far */
  handles: string[];
}

const JUNK: unknown[] = [null, 0, -1, 1.5, "", "x", true, [], {}, [1, "a"], { a: 1 }, 2 ** 53];
const COUNTS = [1, 2, 3, 4, 0, -1, 1.5, 2 ** 31, 1e9];
const SMALL = [1, 1, 1, 2, 2, 3, 4];
const NOT_OBJECTS: unknown[] = [null, [], [{ file: "a.fake" }], "a.fake", 0, true];

export function pickTool(r: Prng, tools: ToolSchema[]): ToolSchema {
  // restarts are slow and says little more after a few: keep them rare
  const weighted = tools.flatMap((t) => (t.name === "session_restart" ? [t] : Array(12).fill(t)));
  return r.pick(weighted);
}

/** usually one of `good`, sometimes one of `bad` */
function either<T>(r: Prng, good: readonly T[], bad: readonly T[]): T {
  return r.chance(0.9) ? r.pick(good) : r.pick(bad);
}

function plausible(r: Prng, key: string, ctx: FuzzContext): unknown {
  switch (key) {
    case "workspace":
      return either(r, ["ws"], ["nope", ""]);
    case "server":
      return either(r, ["fake"], ["other", ""]);
    case "file":
      return r.chance(0.7) ? r.pick(ctx.files.slice(0, 3)) : r.pick(ctx.files);
    case "line":
    case "column":
    case "end_line":
    case "end_column":
    case "occurrence":
      return r.chance(0.9) ? r.pick(SMALL) : r.pick(COUNTS);
    case "symbol":
      return either(r, ["fn_a", "line", "two", "é", "😀"], ["", "x".repeat(300)]);
    case "new_name":
      return either(r, ["renamed", "fn_b", "😀"], ["", "a\nb", "x".repeat(300)]);
    case "query":
      return either(r, ["fn", "é", "*"], ["", "x".repeat(1000)]);
    case "limit":
      return either(r, [1, 2, 3, 200], [0, -1, 10_000]);
    case "offset":
      return either(r, [0, 1, 2], [-1, 1.5]);
    case "include_declaration":
      return r.chance(0.5);
    case "start":
      return r.chance(0.2);
    case "only":
      return either(r, [["quickfix"]], [[], ["x", 1], "quickfix"]);
    case "direction":
      return either(r, ["incoming", "outgoing"], ["sideways", ""]);
    case "files":
      return either<unknown>(
        r,
        [ctx.files.slice(0, 2), ctx.files.slice(0, 1)],
        [[], ctx.files, "a.fake"],
      );
    case "since":
      return r.pick(["", "snapshot-0", "x".repeat(80)]);
    case "handle": {
      // the same draws whether or not handles were seen, so the stream stays reproducible
      const useSeen = r.chance(0.6);
      const seen = r.next();
      const forged = r.pick(["", "forged", "h".repeat(64), "0".repeat(43)]);
      const n = ctx.handles.length;
      return useSeen && n > 0 ? ctx.handles[Math.floor(seen * n)] : forged;
    }
    default:
      return r.pick(JUNK);
  }
}

/** Arguments for one call of `tool`; the first three `ctx.files` should be the good ones. */
export function fuzzArguments(r: Prng, tool: ToolSchema, ctx: FuzzContext): unknown {
  if (r.chance(0.03)) return r.pick(NOT_OBJECTS);
  const out: Record<string, unknown> = {};
  if (r.chance(0.08)) {
    for (let i = r.int(0, 3); i > 0; i--)
      out[r.pick(["file", "x", "line", "constructor"])] = r.pick(JUNK);
    return out;
  }
  const required = new Set(tool.inputSchema.required ?? []);
  const keys = Object.keys(tool.inputSchema.properties ?? {});
  // a position is `column` or `symbol`: usually exactly one of them
  const anchor = r.chance(0.8) ? r.pick(["column", "symbol"]) : undefined;
  for (const key of keys) {
    let include = required.has(key) ? r.chance(0.97) : r.chance(0.3);
    if (anchor !== undefined && (key === "column" || key === "symbol")) include = key === anchor;
    if (key === "workspace" || key === "server") include = r.chance(0.15);
    if (key === "occurrence" && anchor === "column") include = r.chance(0.05);
    // positions usually name a line (a `symbol` alone is looked up among document symbols)
    if (key === "line") include = r.chance(0.9);
    if (!include) continue;
    out[key] = r.chance(0.97) ? plausible(r, key, ctx) : r.pick(JUNK);
  }
  if (r.chance(0.05)) out.unexpected = r.pick(JUNK);
  return out;
}

const KIB = 1024;

/**
 * A `tools/call` of `hover` on `file` with generated JSON of a random shape and size (up
 * to just under the 8 MiB line limit) in `_meta`, in an unknown argument, or as the
 * arguments themselves: parsed past the client bounds, -32600 with its id; within them,
 * an answer or a tool error.
 */
export function wideCall(r: Prng, id: number, file: string): { line: string; what: string } {
  const shape = r.pick(COSTLY_SHAPES);
  const bytes = r.pick([4 * KIB, 64 * KIB, 512 * KIB, 7 * 1024 * KIB]);
  const json = shapedJson(shape, bytes);
  const args = `{"file":${JSON.stringify(file)},"line":1,"column":1}`;
  const where = r.pick(["_meta", "argument", "arguments"] as const);
  const params =
    where === "_meta"
      ? `{"name":"hover","arguments":${args},"_meta":{"x":${json}}}`
      : where === "argument"
        ? `{"name":"hover","arguments":{"file":${JSON.stringify(file)},"line":1,"column":1,"x":${json}}}`
        : `{"name":"hover","arguments":${json}}`;
  return {
    line: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`,
    what: `${shape} of ${bytes} bytes in ${where}`,
  };
}
