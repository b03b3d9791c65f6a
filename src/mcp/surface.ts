/**
 * The published tool surface (tools/list), for `serve.ts` to import as a Bun macro: the
 * build runs `describeTools` once and inlines its JSON, so the first tools/list costs no
 * JSON-Schema generation at run time (docs/PERFORMANCE.md: it was most of that call).
 * The surface is fixed (SPEC §4.1), so nothing is lost by computing it at build time.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describeTools } from "./describe.ts";
import { TOOLS } from "./tools/index.ts";

export function publishedSurface(): Tool[] {
  return describeTools(TOOLS);
}
