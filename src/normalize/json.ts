/**
 * The one serialization of results (SPEC §4.3, §4.4): plain JSON.stringify without
 * whitespace. Key order is insertion order, so determinism rests on the builders in this
 * folder constructing every object with its keys in one fixed order (see types.ts), and on
 * lists being in canonical order (order.ts). And the one test of what a JSON object is,
 * for everything that reads untrusted JSON (server answers, client messages).
 */

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value);
}

export function utf8Length(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** A JSON object: not null, not an array. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
