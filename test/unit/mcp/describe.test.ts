/**
 * The published tool list (SPEC §4.1): schemas in the portable subset the MCP Inspector
 * accepts without warnings (no `type` arrays, no schema that constrains nothing, no
 * boolean schemas, no references), output schemas a plain object schema describing the
 * success result, no safe-integer bounds.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { describeTools, jsonSchemaOf, portableSchema } from "../../../src/mcp/describe.ts";
import { TOOLS } from "../../../src/mcp/tools/index.ts";

/** Keywords that make a schema node constrain its instance (the Inspector's list, abridged). */
const CONSTRAINING = [
  "type",
  "enum",
  "const",
  "anyOf",
  "allOf",
  "oneOf",
  "not",
  "properties",
  "items",
  "required",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "additionalProperties",
];

/** Every problem the Inspector's schema lint would report, as `path: issue`. */
function portabilityFindings(node: unknown, path = ""): string[] {
  if (typeof node === "boolean") return [`${path}: boolean schema`];
  if (typeof node !== "object" || node === null) return [];
  const n = node as Record<string, unknown>;
  const out: string[] = [];
  if (Array.isArray(n.type)) out.push(`${path}: type array`);
  if (typeof n.$ref === "string") out.push(`${path}: $ref`);
  if (!Object.keys(n).some((k) => CONSTRAINING.includes(k))) out.push(`${path}: untyped`);
  if (n.minimum === Number.MIN_SAFE_INTEGER || n.maximum === Number.MAX_SAFE_INTEGER)
    out.push(`${path}: safe-integer bound`);
  for (const key of ["properties", "definitions", "$defs"]) {
    const map = n[key];
    if (typeof map === "object" && map !== null) {
      for (const [name, sub] of Object.entries(map)) {
        out.push(...portabilityFindings(sub, `${path}.${key}.${name}`));
      }
    }
  }
  for (const key of ["anyOf", "allOf", "oneOf"]) {
    const list = n[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) {
      out.push(...portabilityFindings(sub, `${path}.${key}[${i}]`));
    }
  }
  for (const key of ["items", "additionalProperties", "not"]) {
    if (key in n && typeof n[key] !== "boolean")
      out.push(...portabilityFindings(n[key], `${path}.${key}`));
    else if (key === "items" && typeof n[key] === "boolean")
      out.push(`${path}.items: boolean schema`);
  }
  return out;
}

describe("portableSchema", () => {
  test("nullable becomes anyOf, `{}` and safe-integer bounds go, output drops closedness", () => {
    const schema = z.object({
      n: z.number().int(),
      s: z.string().min(1).nullable(),
      free: z.object({}).passthrough(),
    });
    expect(jsonSchemaOf(schema, "output")).toEqual({
      type: "object",
      properties: {
        n: { type: "integer" },
        s: { anyOf: [{ type: "string", minLength: 1 }, { type: "null" }] },
        free: { type: "object" },
      },
    });
    expect(jsonSchemaOf(schema.strict(), "input")).toEqual({
      type: "object",
      properties: {
        n: { type: "integer" },
        s: { anyOf: [{ type: "string", minLength: 1 }, { type: "null" }] },
        free: { type: "object" },
      },
      required: ["n", "s", "free"],
      additionalProperties: false,
    });
  });

  test("nothing else is touched", () => {
    const node = { type: "integer", minimum: 1, maximum: 10, description: "x" };
    expect(portableSchema(node, true)).toEqual(node);
  });
});

describe("the published tools", () => {
  const tools = describeTools(TOOLS);

  test("no schema has anything the Inspector's portability lint reports", () => {
    const findings = tools.flatMap((t) => [
      ...portabilityFindings(t.inputSchema, `${t.name}.inputSchema`),
      ...portabilityFindings(t.outputSchema, `${t.name}.outputSchema`),
    ]);
    expect(findings).toEqual([]);
  });

  test("every output schema is a plain object schema of the success result", () => {
    for (const t of tools) {
      const out = t.outputSchema as Record<string, unknown>;
      expect(out.type).toBe("object");
      expect(Object.keys(out).sort()).toEqual(["properties", "type"]);
      // the error envelope is not part of it (errors carry no structuredContent)
      expect(Object.keys(out.properties as object)).not.toContain("code");
    }
  });

  test("input schemas repeat no bound the bridge checks itself", () => {
    const bounds = /"(?:minimum|maximum|minLength|maxLength|minItems|maxItems|pattern)"/;
    for (const t of tools) expect(JSON.stringify(t.inputSchema)).not.toMatch(bounds);
    // the check itself stays: the zod schema still refuses what the published one omits
    const rename = TOOLS.find((t) => t.name === "rename_apply");
    expect(rename?.input.safeParse({ file: "a", new_name: "x", edit_set: "zz" }).success).toBe(
      false,
    );
  });

  test("descriptions are one short line and repeat no error codes", () => {
    for (const t of tools) {
      expect(t.description?.length ?? 0).toBeLessThanOrEqual(200);
      expect(t.description).not.toMatch(/Errors?:/);
      expect(t.description).not.toContain("PathOutsideWorkspace");
    }
  });
});
