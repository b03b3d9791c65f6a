/**
 * A daemon grandchild for the fake server.
 *   bun daemon.ts run PIDFILE          — write own pid to PIDFILE, then idle forever
 *   bun daemon.ts double-fork PIDFILE  — (started detached, i.e. after setsid) start
 *                                        `run` and exit at once, orphaning it
 */
import { readlinkSync, renameSync, writeFileSync } from "node:fs";

const [mode, pidfile] = process.argv.slice(2);
if (pidfile === undefined) {
  process.stderr.write("usage: daemon.ts run|double-fork PIDFILE\n");
  process.exit(2);
}

if (mode === "double-fork") {
  // We are a session leader already (spawned detached); the child is not, and
  // our exit orphans it: the second half of the classic daemon dance.
  Bun.spawn([process.execPath, import.meta.path, "run", pidfile], {
    stdio: ["ignore", "ignore", "ignore"],
  }).unref();
  process.exit(0);
}

// Atomic, so a test polling for the file never reads a partial pid. The pid /proc gives us,
// which the test reads: inside a session's PID namespace our own pid is another number.
const pid = readlinkSync("/proc/self");
const tmp = `${pidfile}.${pid}.tmp`;
writeFileSync(tmp, pid);
renameSync(tmp, pidfile);
setInterval(() => {}, 1 << 30);
