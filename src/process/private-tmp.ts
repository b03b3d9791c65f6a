/**
 * A server's own temporary directory (SPEC §9.2). Language servers leave files behind in
 * the shared temporary directory — typescript-language-server makes a directory per
 * tsserver for its cancellation pipes and never removes it, two per start — and a sandbox
 * that runs sessions for hours fills up with them. The launcher makes a fresh directory
 * (mode 0700, beneath the TMPDIR the server would have had), the supervisor gives it to the
 * server as `TMPDIR` and removes it with everything in it once the whole tree is dead, on
 * every path it reaps; the launcher removes it again after the supervisor's exit (a
 * supervisor killed outright). Only both killed leave it, named for the bridge's pid.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The prefix of every private directory; the bridge's pid follows. */
export const PRIVATE_TMP_PREFIX = "theodolite-server-";

/**
 * A new private directory beneath `base` (the TMPDIR the server would have had, else
 * /tmp), or the reason there is none: the server then keeps the shared one.
 */
export function makePrivateTmp(
  base: string | undefined,
  owner: number,
): { dir: string } | { failed: string } {
  const parent = base?.startsWith("/") ? (base as string) : "/tmp";
  try {
    // mkdtemp: a name nobody had, created 0700 by us
    return { dir: mkdtempSync(join(parent, `${PRIVATE_TMP_PREFIX}${owner}-`)) };
  } catch (err) {
    return { failed: `no private temporary directory in ${parent}: ${String(err)}` };
  }
}

/**
 * Remove `dir` and everything in it; links inside are removed, never followed. Returns
 * why it could not, or undefined. Called only once no process of the tree is left to
 * write into it.
 */
export function removePrivateTmp(dir: string): string | undefined {
  try {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  } catch (err) {
    return `could not remove ${dir}: ${String(err)}`;
  }
}
