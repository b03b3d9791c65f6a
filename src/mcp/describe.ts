/**
 * The published tool list (SPEC §4.1): each tool's zod schemas as JSON Schema
 * that clients keep. Output schemas describe the success result only — an
 * error is an `isError` result with text content and no `structuredContent`
 * (SPEC §4.6), so clients never validate it against them — and both schemas
 * are rewritten into the portable subset: no `type` arrays (nullable becomes
 * `anyOf`), no bare `{}` schemas, no safe-integer bounds zod adds to every
 * integer, no `$schema`. Output schemas are published one level deep (each result field
 * and its type): what a client validates is the result's shape, and every nested level
 * would be carried in every turn of every client (the list's budget, SPEC §4.1).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isJsonObject } from "../normalize/json.ts";
import type { ToolDefinition } from "./tool.ts";

type Json = Record<string, unknown>;

/**
 * One schema node, made portable, recursively. `output`: `additionalProperties: false`
 * is dropped too — a result may grow a field without breaking clients that validate.
 */
export function portableSchema(node: unknown, output: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => portableSchema(n, output));
  if (!isJsonObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "additionalProperties" && isJsonObject(value) && Object.keys(value).length === 0) {
      continue; // `{}` says "anything", which is the default anyway
    }
    if (key === "additionalProperties" && value === false && output) continue;
    if (key === "required" && output) continue;
    if (key === "properties" && isJsonObject(value) && Object.keys(value).length === 0) continue;
    out[key] = portableSchema(value, output);
  }
  const type = out.type;
  if (Array.isArray(type)) {
    // `type: ["string", "null"]` → one branch per type, the other keywords on the non-null one
    const { type: _, ...rest } = out;
    return {
      anyOf: type.map((t) => (t === "null" ? { type: "null" } : { type: t, ...rest })),
    };
  }
  return out;
}

/** A result field's schema reduced to its type(s): a nullable field stays an `anyOf`. */
function shallowField(node: unknown): unknown {
  if (!isJsonObject(node)) return node;
  if (Array.isArray(node.anyOf)) return { anyOf: node.anyOf.map(shallowField) };
  return node.type === undefined ? {} : { type: node.type };
}

/** An output schema cut to its top level: the result's fields and their types. */
export function shallowOutput(schema: Json): Json {
  const props = isJsonObject(schema.properties) ? schema.properties : {};
  const fields = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, shallowField(v)]));
  return { type: "object", properties: fields };
}

/** JSON Schema for a zod object, as published in tools/list. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const json = z.toJSONSchema(schema, { io, target: "draft-7", unrepresentable: "any" });
  return portableSchema(json, io === "output") as Json;
}

/** Bounds the bridge checks with a typed error and a hint (SPEC §4.1): not published. */
const CHECKED_BOUNDS = new Set([
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
]);

/** An input schema as published: the checked bounds left to the check's error. */
export function withoutBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutBounds);
  if (!isJsonObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (!CHECKED_BOUNDS.has(key)) out[key] = withoutBounds(value);
  }
  return out;
}

export function describeTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: withoutBounds(jsonSchemaOf(t.input, "input")) as Tool["inputSchema"],
    outputSchema: shallowOutput(jsonSchemaOf(t.output, "output")) as Tool["outputSchema"],
    annotations: t.annotations,
  }));
}
