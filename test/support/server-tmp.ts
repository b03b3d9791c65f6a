/**
 * Servers that benchmarks and tests start themselves, outside the bridge, get a TMPDIR of
 * their own as the bridge's servers do (SPEC §9.2, src/process/private-tmp.ts), removed
 * when the client closes: nothing they leave piles up in the shared one.
 */
import {
  makePrivateTmp,
  removePrivateTmp,
  thisProcessAsOwner,
} from "../../src/process/private-tmp.ts";

/** `env` with a fresh private TMPDIR (the shared one kept when none can be made), and it. */
export function withServerTmp(env: Record<string, string>): {
  env: Record<string, string>;
  tmp: string | undefined;
} {
  const made = makePrivateTmp(env.TMPDIR, thisProcessAsOwner());
  return "dir" in made
    ? { env: { ...env, TMPDIR: made.dir }, tmp: made.dir }
    : { env, tmp: undefined };
}

/** Remove what withServerTmp made, once the server's processes are gone. */
export function removeServerTmp(tmp: string | undefined): void {
  if (tmp !== undefined) removePrivateTmp(tmp);
}
