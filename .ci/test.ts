/**
 * The whole suite, as `bun run test` and `bun run check` run it (docs/TESTING.md#running),
 * in two phases on the machine's cores:
 *
 * 1. serially, the files whose assertions are about time or memory (SERIAL below): a
 *    bound measured while another file's servers take a core measures the other file;
 * 2. every other file with `bun test --parallel=2`, the slowest first (test/timings.json).
 *
 * The binary is built once before either (two workers would each rebuild it). Both phases
 * always run; the exit code is non-zero when either failed. `--update-timings` writes the
 * second phase's durations to the file; other arguments (files, filters, flags) run plain
 * `bun test` with them instead, as `bun run test test/unit` means.
 */
import { join } from "node:path";
import { ensureBinary } from "../test/support/bridge.ts";

const repo = join(import.meta.dir, "..");
const TIMEOUT = "--timeout=120000";
const TIMINGS = "test/timings.json";

/** Folders and files run one at a time, each with why. */
const SERIAL = [
  // bounds under attack: peak RSS, memory given back when idle, answers within deadlines
  "test/hostile/",
  // a bridge's tree reaped, a supervisor's grace and exit, timed from the event
  "test/process/",
  "test/trees/",
  // an unresponsive shared bridge is given up on within its timeout plus a margin
  "test/daemon/unresponsive.test.ts",
  // the first call within 10 s of readiness, sessions already two at a time on purpose
  "test/real/rust-analyzer-first-call.test.ts",
];

async function phase(name: string, args: string[]): Promise<{ ok: boolean; seconds: number }> {
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, "test", TIMEOUT, ...args], {
    cwd: repo,
    stdio: ["inherit", "inherit", "inherit"],
  });
  const code = await proc.exited;
  const seconds = Math.round((performance.now() - t0) / 1000);
  console.log(`\n.ci/test.ts: ${name} ${code === 0 ? "passed" : "FAILED"} in ${seconds} s`);
  return { ok: code === 0, seconds };
}

ensureBinary();
const args = process.argv.slice(2);
const update = args.includes("--update-timings") ? ["--update-timings"] : [];
if (args.length > update.length) {
  process.exit((await phase("bun test", args)).ok ? 0 : 1);
}
const serial = await phase(
  "serial phase",
  SERIAL.map((p) => `./${p}`),
);
const parallel = await phase("parallel phase", [
  "--parallel=2",
  `--timings=${TIMINGS}`,
  ...update,
  ...SERIAL.map((p) => `--path-ignore-patterns=${p.endsWith("/") ? `${p}**` : p}`),
]);
console.log(
  `.ci/test.ts: serial ${serial.seconds} s + parallel ${parallel.seconds} s = ${serial.seconds + parallel.seconds} s`,
);
process.exit(serial.ok && parallel.ok ? 0 : 1);
