/**
 * Test stand-in for `theodolite --supervise …` (src/main.ts dispatches the
 * same way): `bun test/process/supervisor-entry.ts --supervise ARGS…`.
 */
import { runSupervisor } from "../../src/process/supervisor.ts";

const args = process.argv.slice(2);
await runSupervisor(args[0] === "--supervise" ? args.slice(1) : args);
