/**
 * The stop ladder of one server (SPEC §9.2) within one deadline: LSP `shutdown` and `exit`,
 * each given half of the time left (a server that stops reading leaves both pending), then
 * the supervisor's ladder (process/launch.ts) with the rest.
 */
import type { MessageConnection } from "vscode-languageserver-protocol";
import { bounded } from "../bounded.ts";
import type { ExitInfo, SupervisedProcess } from "../process/launch.ts";

export interface StopOptions {
  /** Date.now() by which the tree is gone or being killed */
  deadline: number;
  /** the connection to send shutdown and exit on; none when the handshake failed */
  conn: MessageConnection | undefined;
  /** the bounded `shutdown` request (it fails at once if the session dies meanwhile) */
  shutdown: (conn: MessageConnection) => Promise<unknown>;
}

/** What is left before `deadline` (Date.now()), in ms. */
export function remaining(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/** Resolves once the supervisor has exited (its tree reaped), or was killed and not seen to. */
export async function stopServer(proc: SupervisedProcess, opts: StopOptions): Promise<ExitInfo> {
  const { conn, deadline } = opts;
  if (conn) {
    // LSP shutdown, then exit either way, each in half of what is left
    const shutdown = opts.shutdown(conn).catch(() => {});
    await bounded(shutdown, remaining(deadline) / 2);
    // the write waits behind every pending one; a connection already closed throws at once
    const exit = (async () => conn.sendNotification("exit"))().catch(() => {});
    await bounded(exit, remaining(deadline) / 2);
  }
  return (await proc.terminate(remaining(deadline))).exit;
}
