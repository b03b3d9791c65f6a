/**
 * The stop ladder of one server (SPEC §9.2): LSP `shutdown` within the grace period and
 * `exit`, then the supervisor's ladder (process/launch.ts: wait, close stdin, kill the whole
 * tree by pid). What the session forgets once the process is gone is not here: that
 * teardown runs in one place whoever ended the server (`ServerProcess.release`, on exit).
 */
import type { MessageConnection } from "vscode-languageserver-protocol";
import { bounded } from "../bounded.ts";
import type { SupervisedProcess } from "../process/launch.ts";

export interface StopOptions {
  graceMs: number;
  /** the connection to send shutdown and exit on; none when the handshake failed */
  conn: MessageConnection | undefined;
  /** the bounded `shutdown` request (it fails at once if the session dies meanwhile) */
  shutdown: (conn: MessageConnection) => Promise<unknown>;
}

/** Resolves once the supervisor has exited (its tree reaped). */
export async function stopServer(proc: SupervisedProcess, opts: StopOptions): Promise<void> {
  const { conn, graceMs } = opts;
  if (conn) {
    // LSP shutdown gets the grace period; exit follows either way
    await bounded(
      opts.shutdown(conn).catch(() => {}),
      graceMs,
    );
    try {
      // a connection the server's closed stdout ended throws here, at once
      await conn.sendNotification("exit");
    } catch {
      // nobody to tell: the ladder below ends it
    }
  }
  await proc.terminate(graceMs);
}
