/**
 * Serialization and the result size cap (SPEC §4.4).
 *
 * canonicalJson is plain JSON.stringify without whitespace: key order is insertion order,
 * so determinism rests on the builders in this folder constructing every object with its
 * keys in one fixed order (see types.ts), and on lists being in canonical order (order.ts).
 */

import { BridgeError } from "../errors.ts";

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value);
}

export function utf8Length(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/**
 * Serialize a result and measure it against the cap: at most maxBytes UTF-8 bytes passes,
 * anything over is ResultTooLarge with the real item count. Never truncates.
 */
export function enforceSizeCap(result: object, count: number, maxBytes: number): string {
  const json = canonicalJson(result);
  const bytes = utf8Length(json);
  if (bytes <= maxBytes) return json;
  // A rough page size that would fit, assuming items of similar size.
  const fitting = Math.max(1, Math.floor((count * maxBytes) / bytes / 2));
  throw new BridgeError(
    "ResultTooLarge",
    `result is ${bytes} bytes (${count} items), over the ${maxBytes}-byte limit`,
    {
      hint:
        count > 1
          ? `page with \`limit\` and \`offset\` (for example limit=${fitting}), or narrow the request`
          : "narrow the request (another file, position or query); max_result_bytes bounds every result",
      details: { count, bytes, max_bytes: maxBytes },
    },
  );
}
