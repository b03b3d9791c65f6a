/**
 * Every URI a server's answer names (SPEC §5.1): what a call loads line tables for before
 * it converts the answer's positions. Locations and links (`uri`, `targetUri`), symbols,
 * call hierarchy items and workspace edits (`changes` keyed by URI, `documentChanges`) are
 * all found by their keys, however the answer nests them, down to a fixed depth: an answer
 * is untrusted (SPEC §8), so the walk keeps its own stack and bounds it.
 */

/** Deeper than any result shape nests a URI (a workspace edit's: 4). */
const MAX_DEPTH = 16;

/** Keys whose values hold positions only: not walked. */
const POSITIONS_ONLY = new Set([
  "changes",
  "range",
  "selectionRange",
  "targetRange",
  "targetSelectionRange",
  "originSelectionRange",
  "fromRanges",
]);

/** The URIs of `raw`, each once, in the order first met. */
export function namedUris(raw: unknown): string[] {
  const found = new Set<string>();
  const stack: { value: unknown; depth: number }[] = [{ value: raw, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, depth } = item;
    if (typeof value !== "object" || value === null || depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1 });
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of ["uri", "targetUri"]) {
      const uri = record[key];
      if (typeof uri === "string") found.add(uri);
    }
    const changes = record.changes;
    if (typeof changes === "object" && changes !== null && !Array.isArray(changes)) {
      for (const uri of Object.keys(changes)) found.add(uri);
    }
    for (const key of Object.keys(record)) {
      if (!POSITIONS_ONLY.has(key)) stack.push({ value: record[key], depth: depth + 1 });
    }
  }
  return [...found];
}
