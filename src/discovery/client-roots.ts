/**
 * The MCP client's roots as the workspace (SPEC §2.1): zero-config started in a directory it
 * refuses (root-guard.ts) serves instead the first of the client's first MAX_ROOTS_LOOKED
 * roots that it would serve; the others are listed in the report, not served.
 */
import { realpathSync, statSync } from "node:fs";
import type { ClientRoot, Config } from "../config/types.ts";
import { log } from "../log.ts";
import { uriToPath } from "../workspace/uri.ts";
import { lookAtTop, placesOf, refusal } from "./root-guard.ts";
import { emptyReport, zeroConfigShell } from "./zero-config.ts";

/** What the client answered: its roots' URIs in its order, or why there are none. */
export type RootsAnswer = { uris: readonly string[] } | { none: string };

/** Roots looked at and listed, at most: each look reads up to a few thousand directory entries. */
export const MAX_ROOTS_LOOKED = 16;
/** A root's URI as the report shows it, at most (the client's text, SPEC §8.2). */
const MAX_URI_SHOWN = 512;

/** The local directory a root names (real path), or why it names none. */
function directoryOf(uri: string): { dir: string } | { why: string } {
  const path = uriToPath(uri);
  if (path === null) return { why: "not a local file: URI" };
  try {
    const dir = realpathSync(path);
    return statSync(dir).isDirectory() ? { dir } : { why: "not a directory" };
  } catch {
    return { why: "it does not exist or cannot be read" };
  }
}

/** The shell to discover for: `start`'s if served, else the first served root's, else the refusal. */
export async function shellForRoots(
  start: Config,
  ask: () => Promise<RootsAnswer>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Config> {
  const refused = start.discovery?.refused;
  if (start.discovery === undefined || refused === undefined) return start;
  const startedIn = start.workspaces[0]?.root ?? start.discovery.root;
  const answer = await ask();
  if ("none" in answer) {
    const roots = { started_in: startedIn, asked: answer.none, listed: null };
    return { ...start, discovery: { ...start.discovery, roots } };
  }
  const places = placesOf(env);
  const listed: ClientRoot[] = [];
  let served: string | undefined;
  for (const full of answer.uris.slice(0, MAX_ROOTS_LOOKED)) {
    const uri = full.length > MAX_URI_SHOWN ? `${full.slice(0, MAX_URI_SHOWN)}…` : full;
    if (served !== undefined) {
      listed.push({ uri, served: false, why: "not looked at: an earlier root is served" });
      continue;
    }
    const at = directoryOf(full);
    const no = "dir" in at ? refusal(at.dir, places, () => lookAtTop(at.dir)) : null;
    if ("dir" in at && no === null) {
      served = at.dir;
      listed.push({ uri, served: true, why: `served (${at.dir})` });
    } else listed.push({ uri, served: false, why: "why" in at ? at.why : (no?.reason ?? "") });
  }
  const asked = `the client listed ${answer.uris.length} root(s)`;
  const roots = { started_in: startedIn, asked, listed };
  if (served === undefined) {
    const reason = `${refused.reason}; nor is any root the client listed a project it serves`;
    return { ...start, discovery: { ...start.discovery, refused: { ...refused, reason }, roots } };
  }
  log.info(
    `zero-config: serving the client's root ${served} (not ${startedIn}: ${refused.reason})`,
  );
  const shell = zeroConfigShell(served, env);
  return { ...shell, discovery: { ...emptyReport(served), roots } };
}
