/**
 * A tool's arguments checked without zod when they are plainly valid (docs/PERFORMANCE.md,
 * "Where the per-call time goes"): a checker compiled once from the tool's input schema,
 * for the shapes the read tools take — a strict object of strings, safe integers with
 * their bounds, booleans and enums, each optional or not. It accepts only what the schema
 * accepts and gives what its parse gives (the schema's keys, in its order, those present);
 * anything else — a key it does not know, a value of another type or out of bounds — is
 * undecided, and zod's parse decides, with its errors. A schema with any other part has
 * no checker: zod parses every call.
 */
import type { z } from "zod";

/** The arguments as the schema's parse gives them, or undefined: let zod decide. */
export type ArgsCheck = (raw: Record<string, unknown>) => Record<string, unknown> | undefined;

type Leaf = (v: unknown) => boolean;

/** zod's internals, as far as they are read here (zod v4's `_zod.def`). */
interface Def {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  checks?: { _zod: { def: CheckDef } }[];
  entries?: Record<string, unknown>;
  values?: unknown[];
}
interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
}
interface Schema {
  _zod: { def: Def };
}

/** One check of a number or a string, or null when it is not one read here. */
function checkOf(def: CheckDef): Leaf | null {
  const { value, inclusive } = def;
  switch (def.check) {
    case "number_format":
      return def.format === "safeint" ? (v) => Number.isSafeInteger(v) : null;
    case "greater_than":
      if (typeof value !== "number") return null;
      return inclusive ? (v) => (v as number) >= value : (v) => (v as number) > value;
    case "less_than":
      if (typeof value !== "number") return null;
      return inclusive ? (v) => (v as number) <= value : (v) => (v as number) < value;
    case "min_length": {
      const min = def.minimum;
      return typeof min === "number" ? (v) => (v as string).length >= min : null;
    }
    case "max_length": {
      const max = def.maximum;
      return typeof max === "number" ? (v) => (v as string).length <= max : null;
    }
    default:
      return null;
  }
}

/** A value's check from its schema, or null when the schema has a part not read here. */
function leafOf(def: Def): Leaf | null {
  const checks: Leaf[] = [];
  for (const c of def.checks ?? []) {
    const check = checkOf(c._zod.def);
    if (check === null) return null;
    checks.push(check);
  }
  const all = (v: unknown) => checks.every((c) => c(v));
  switch (def.type) {
    case "string":
      return (v) => typeof v === "string" && all(v);
    case "number":
      return (v) => typeof v === "number" && Number.isFinite(v) && all(v);
    case "boolean":
      return checks.length === 0 ? (v) => typeof v === "boolean" : null;
    case "enum": {
      const values = new Set(Object.values(def.entries ?? {}));
      return checks.length === 0 ? (v) => values.has(v) : null;
    }
    case "literal": {
      const values = new Set(def.values ?? []);
      return checks.length === 0 ? (v) => values.has(v) : null;
    }
    default:
      return null;
  }
}

/** The checker of a strict object schema of such values, or null when it has none. */
export function compileArgsCheck(schema: z.ZodObject): ArgsCheck | null {
  const def = (schema as unknown as Schema)._zod.def;
  if (def.type !== "object" || def.catchall?._zod.def.type !== "never") return null;
  const fields: { key: string; optional: boolean; leaf: Leaf }[] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const fieldDef = field._zod.def;
    const optional = fieldDef.type === "optional";
    const inner = optional ? fieldDef.innerType?._zod.def : fieldDef;
    const leaf = inner === undefined ? null : leafOf(inner);
    if (leaf === null) return null;
    fields.push({ key, optional, leaf });
  }
  return (raw) => {
    let present = 0;
    const out: Record<string, unknown> = {};
    for (const { key, optional, leaf } of fields) {
      if (!Object.hasOwn(raw, key)) {
        if (optional) continue;
        return undefined;
      }
      const v = raw[key];
      if (!leaf(v)) return undefined;
      out[key] = v;
      present += 1;
    }
    // a key the schema does not know: zod names it
    return Object.keys(raw).length === present ? out : undefined;
  };
}
