/**
 * Whether a server that was found can serve here (SPEC §2.1), from disk and PATH, nothing
 * run, as its preset's discovery rules say: one that drives a tsserver needs a TypeScript
 * with one (tsserver.ts), one that runs a command needs it on PATH (gopls loads packages
 * with `go`). One that cannot is left out, its reason naming what to install, and the
 * choice goes on without it.
 */
import type { PlannedProbe, ProbeOutcome } from "./choose.ts";
import type { WorkspaceToolchain } from "./toolchain.ts";
import { tsserverFor } from "./tsserver.ts";

/** The outcome as discovery should take it: a found server that cannot serve is missing. */
export function servable(
  p: PlannedProbe,
  outcome: ProbeOutcome | undefined,
  toolchain: WorkspaceToolchain,
  searchPath: string,
): ProbeOutcome | undefined {
  if (outcome === undefined || !("found" in outcome)) return outcome;
  const { found } = outcome;
  const seen = `${found.command} (${found.version}) found, but`;
  const needs = p.preset.discovery?.needsOnPath;
  if (needs !== undefined && Bun.which(needs.command, { PATH: searchPath }) === null) {
    return { missing: `${seen} no \`${needs.command}\` on PATH, ${needs.why}` };
  }
  const ts = toolchain.typescript;
  const workspaceServes = ts !== null && ts.tsserver !== null && ts.major < 7;
  if (p.preset.discovery?.typescript !== "tsserver" || workspaceServes) return outcome;
  // no workspace TypeScript it can drive: only with one found beside it or through PATH
  const choice = tsserverFor(found.command, Bun.which("tsc", { PATH: searchPath }));
  if ("missing" in choice) return { missing: `${seen} ${choice.missing}` };
  const { version, tsserver } = choice.found;
  return { found: { ...found, typescript: { version, tsserver, from: choice.from } } };
}
