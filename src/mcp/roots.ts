/**
 * The client's roots (SPEC §2.1, §4.8), asked only when zero-config was started in a
 * directory it does not serve: `roots/list`, sent once the client said `initialized`, to a
 * client that advertised the `roots` capability, answered within ROOTS_TIMEOUT_MS or not at
 * all. What comes back is checked with the SDK's schema; anything else means no roots.
 */
import { ListRootsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { bounded } from "../bounded.ts";
import type { RootsAnswer } from "../discovery/client-roots.ts";
import type { McpConnection } from "./protocol.ts";

/** SPEC §4.8: how long the client has to say `initialized`, then to answer roots/list. */
export const ROOTS_TIMEOUT_MS = 5000;

/** Of a client's error message, what the report keeps. */
const MAX_WHY_CHARS = 256;

export async function askRoots(connection: McpConnection): Promise<RootsAnswer> {
  if (connection.clientCapabilities()?.roots === undefined) {
    return { none: "the client offers no roots (no `roots` capability)" };
  }
  const said = await bounded(
    connection.initialized().then(() => true),
    ROOTS_TIMEOUT_MS,
  );
  if (said !== true) {
    return { none: `the client sent no \`initialized\` within ${ROOTS_TIMEOUT_MS} ms` };
  }
  let result: unknown;
  try {
    result = await connection.request("roots/list", {}, ROOTS_TIMEOUT_MS);
  } catch (err) {
    // the client's text: cut (SPEC §8.2)
    const why = (err instanceof Error ? err.message : String(err)).slice(0, MAX_WHY_CHARS);
    return { none: `roots/list failed: ${why}` };
  }
  const parsed = ListRootsResultSchema.safeParse(result);
  if (!parsed.success) return { none: "the client's roots/list answer is not a list of roots" };
  return { uris: parsed.data.roots.map((r) => r.uri) };
}
