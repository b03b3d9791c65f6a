/**
 * A throwaway "bridge" for the bridge-death tests: launches the fake server
 * under a supervisor exactly as the bridge does, prints
 * `{"supervisorPid":N,"serverPid":N}` on stdout, then idles until killed.
 *   bun bridge-stub.ts '<scenario json>'
 */
import { launchSupervised } from "../../src/process/launch.ts";
import { baseEnv, FAKE_LS, SUPERVISOR_ENTRY } from "./helpers.ts";

const scenario = process.argv[2] ?? "{}";
const proc = launchSupervised({
  command: process.execPath,
  args: [FAKE_LS],
  cwd: process.cwd(),
  env: { ...baseEnv(), FAKE_LS_SCENARIO: scenario },
  graceMs: 10_000, // long: the bridge-death path must not depend on the stdin-EOF grace
  selfArgv: [process.execPath, SUPERVISOR_ENTRY],
});
const serverPid = await proc.serverPid;
process.stdout.write(`${JSON.stringify({ supervisorPid: proc.supervisorPid, serverPid })}\n`);
setInterval(() => {}, 1 << 30);
