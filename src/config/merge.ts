/**
 * The one merge of configuration tables (SPEC §2.1): nested tables key by key, arrays and
 * scalars replaced; neither argument is modified, nor shared with the result.
 */
export type Table = Record<string, unknown>;

export function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `over` laid over `base`, key by key at every depth. */
export function mergeTables<T extends Table>(base: T, over: Table): T {
  const out: Table = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] =
      isTable(below) && isTable(value) ? mergeTables(below, value) : structuredClone(value);
  }
  return out as T;
}
