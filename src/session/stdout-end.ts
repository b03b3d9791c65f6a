/**
 * A server whose stdout ends while it runs on can never answer again (SPEC §8): broken at
 * once. An exiting server closes stdout just before its exit shows, so the end counts only
 * if its pid still lives STDOUT_END_BOUND_MS later.
 */
import { isDead, readProc } from "../process/proctree.ts";

/** SPEC §8: how long after its stdout ends a server still running counts as broken. */
export const STDOUT_END_BOUND_MS = 250;
const POLL_MS = 10;
export const STDOUT_CLOSED = "it closed its stdout and keeps running";

export interface EndedStdout {
  /** resolves when the process (the supervisor, mirroring the server) has exited */
  exited: Promise<unknown>;
  /** the server's pid, when known */
  serverPid: () => number | undefined;
}

/** After the server's stdout ended: true when the server is still running, false once it exits. */
export async function runsOnWithoutStdout(p: EndedStdout): Promise<boolean> {
  let exited = false;
  void p.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + STDOUT_END_BOUND_MS;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (exited) return false;
    const pid = p.serverPid();
    if (pid !== undefined && isDead(readProc(pid))) return false;
    if (Date.now() >= deadline) return true;
  }
}
