/**
 * Whether a server found can serve here (SPEC §2.1), from disk and PATH, as its discovery
 * rules say (a TypeScript to drive, a command on PATH); else left out, naming what to install.
 */
import { basename, dirname } from "node:path";
import type { PlannedProbe, ProbeOutcome } from "./choose.ts";
import {
  realOrNull,
  typescriptPackage,
  type WorkspaceToolchain,
  type WorkspaceTypescript,
  workspaceTypescript,
} from "./toolchain.ts";

export type TsserverChoice =
  | { found: WorkspaceTypescript & { tsserver: string }; from: string }
  | { missing: string };

/** A TypeScript typescript-language-server can drive: with `lib/tsserver.js`, below 7.x. */
const usable = (ts: WorkspaceTypescript | null): ts is WorkspaceTypescript & { tsserver: string } =>
  ts !== null && ts.tsserver !== null && ts.major < 7;

const described = (ts: WorkspaceTypescript) =>
  `${ts.package} is TypeScript ${ts.version}${ts.tsserver === null ? ", without lib/tsserver.js" : ""}`;

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
  if (p.preset.discovery?.typescript !== "tsserver" || usable(toolchain.typescript)) return outcome;
  // no workspace TypeScript it can drive: only with one found beside it or through PATH
  const choice = tsserverFor(found.command, Bun.which("tsc", { PATH: searchPath }));
  if ("missing" in choice) return { missing: `${seen} ${choice.missing}` };
  const { version, tsserver } = choice.found;
  return { found: { ...found, typescript: { version, tsserver, from: choice.from } } };
}

/**
 * The TypeScript typescript-language-server would drive when the workspace has none: the one
 * beside the server (`tls`, as found), else the package of the `tsc` on PATH.
 */
export function tsserverFor(tls: string, tsc: string | null): TsserverChoice {
  const seen: string[] = [];
  const own = realOrNull(tls);
  const beside = own === null ? null : workspaceTypescript(dirname(own));
  if (usable(beside)) return { found: beside, from: "beside it" };
  seen.push(beside === null ? "none beside it" : `beside it, ${described(beside)}`);
  const tscReal = realOrNull(tsc ?? undefined);
  const pkg = tscReal === null ? null : dirname(dirname(tscReal));
  const onPath = pkg !== null && basename(pkg) === "typescript" ? typescriptPackage(pkg) : null;
  if (usable(onPath)) return { found: onPath, from: `of the tsc on PATH (${tsc})` };
  if (onPath !== null && onPath.package !== beside?.package) {
    seen.push(`the tsc on PATH: ${described(onPath)}`);
  }
  return {
    missing:
      `no TypeScript with lib/tsserver.js for it (${seen.join("; ")}); ` +
      "install typescript@5 in the workspace (npm i -D typescript@5) or beside it (npm i -g typescript@5)",
  };
}
