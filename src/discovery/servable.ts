/**
 * Whether a server that was found can serve here (SPEC §2.1), from disk and PATH, nothing
 * run: typescript-language-server needs a TypeScript with a tsserver (tsserver.ts), and
 * gopls loads packages with the `go` command, so it needs one on PATH. One that cannot is
 * left out, its reason naming what to install, and the choice goes on without it.
 */
import type { PlannedProbe, ProbeOutcome } from "./choose.ts";
import type { WorkspaceToolchain } from "./toolchain.ts";
import { tsserverFor } from "./tsserver.ts";

const TLS = "typescript-language-server";
const GOPLS = "gopls";

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
  if (p.preset.name === GOPLS && Bun.which("go", { PATH: searchPath }) === null) {
    return {
      missing: `${seen} no \`go\` on PATH, which it loads packages with: install Go and put its bin directory on PATH`,
    };
  }
  const ts = toolchain.typescript;
  const workspaceServes = ts !== null && ts.tsserver !== null && ts.major < 7;
  if (p.preset.name !== TLS || workspaceServes) return outcome;
  // no workspace TypeScript it can drive: only with one found beside it or through PATH
  const choice = tsserverFor(found.command, Bun.which("tsc", { PATH: searchPath }));
  if ("missing" in choice) return { missing: `${seen} ${choice.missing}` };
  const { version, tsserver } = choice.found;
  return { found: { ...found, typescript: { version, tsserver, from: choice.from } } };
}
