/**
 * The whole suite, as `bun run test` and `bun run check` run it (docs/TESTING.md#running),
 * in two phases on the machine's cores:
 *
 * 1. serially, the files whose assertions are about time or memory (SERIAL below, less
 *    NOT_SERIAL): a bound measured while another file's servers take a core measures the
 *    other file;
 * 2. every other file with `bun test --parallel=3`, the slowest first (test/timings.json):
 *    three workers on two cores keep both busy while one waits on a server
 *    (docs/TESTING.md).
 *
 * The binary is built once before either (each worker would rebuild it). Both phases
 * always run; the exit code is non-zero when either failed. `--update-timings` writes the
 * second phase's durations to the file; other arguments (files, filters, flags) run plain
 * `bun test` with them instead, as `bun run test test/unit` means.
 */
import { existsSync } from "node:fs";
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

/**
 * Files in SERIAL's folders whose assertions are about neither time nor memory, each with
 * why: they run in the parallel phase. A wait with a deadline there guards against a hang
 * (the deadline is far above what the step takes under load); it measures nothing.
 */
const NOT_SERIAL = [
  // no read or write outside the root, typed answers; each call's 10 s is a hang guard
  // (a call takes ~0.1 s on a loaded machine, 0.4 s at the most under a load of 14)
  "test/hostile/races.test.ts",
  // max_sessions: no sample of /proc ever sees more trees than the limit (a count)
  "test/hostile/session-storm.test.ts",
  // the warm-up skips unusable files; readiness within the 30 s ready_timeout_ms is a guard
  "test/hostile/warmup.test.ts",
  "test/hostile/clangd-warmup.test.ts",
  // parsing and selecting /proc entries; a zombie waited for with a deadline
  "test/process/proctree.test.ts",
  // which exit code under which parent; each exit waited for 10 s, a hang guard
  "test/process/exec-server.test.ts",
];

/** The files of SERIAL, folders expanded, less NOT_SERIAL. */
function serialFiles(): string[] {
  for (const f of NOT_SERIAL) {
    // a renamed file would silently run serially again
    if (!existsSync(join(repo, f))) throw new Error(`.ci/test.ts: NOT_SERIAL names ${f}`);
  }
  const files = SERIAL.flatMap((p) =>
    p.endsWith("/") ? [...new Bun.Glob(`${p}**/*.test.ts`).scanSync({ cwd: repo })] : [p],
  );
  return files.filter((f) => !NOT_SERIAL.includes(f)).sort();
}

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
const serialOnly = serialFiles();
const serial = await phase(
  "serial phase",
  serialOnly.map((f) => `./${f}`),
);
const parallel = await phase("parallel phase", [
  "--parallel=3",
  `--timings=${TIMINGS}`,
  ...update,
  ...serialOnly.map((f) => `--path-ignore-patterns=${f}`),
]);
console.log(
  `.ci/test.ts: serial ${serial.seconds} s + parallel ${parallel.seconds} s = ${serial.seconds + parallel.seconds} s`,
);
process.exit(serial.ok && parallel.ok ? 0 : 1);
