/**
 * What every benchmark shares: the compiled binary, options, temp directories, and
 * bridge.toml writing from validated server configs.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { stringify } from "smol-toml";
import { BINARY, ensureBinary, fakeServer } from "../test/support/bridge.ts";
import { forgetDir, removeOnInterrupt } from "./interrupt.ts";

export { fakeServer };

export interface BenchOptions {
  /** fewer iterations, for a smoke run */
  quick: boolean;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  return { quick: argv.includes("--quick") };
}

/** Iteration count: `full` normally, `quick` with --quick. */
export function count(opts: BenchOptions, full: number, quick: number): number {
  return opts.quick ? quick : full;
}

/** Measure another build instead of dist/theodolite (e.g. to compare build flags). */
export const BINARY_ENV = "THEODOLITE_BENCH_BINARY";

let binaryChecked = false;
/**
 * dist/theodolite, rebuilt first when older than src/ (test/support/bridge.ts). When the
 * rebuild fails (someone's work in progress), an existing binary is still measured, with a
 * loud warning, rather than measuring nothing. $THEODOLITE_BENCH_BINARY, when set, is
 * measured as is instead.
 */
export function binary(): string {
  const other = process.env[BINARY_ENV];
  if (other !== undefined && other !== "") {
    if (!isAbsolute(other) || !existsSync(other)) {
      throw new Error(`${BINARY_ENV} must be the absolute path of an existing binary`);
    }
    return other;
  }
  if (binaryChecked) return BINARY;
  try {
    ensureBinary();
  } catch (err) {
    if (!existsSync(BINARY)) throw err;
    console.warn(`WARNING: rebuild failed, measuring the existing ${BINARY}: ${String(err)}`);
  }
  binaryChecked = true;
  return BINARY;
}

/**
 * A new directory under the OS temp dir (real path: servers report real paths), removed by
 * removeDir or, if the benchmark is interrupted, on the signal (bench/interrupt.ts).
 */
export function makeTempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `theodolite-bench-${prefix}-`)));
  removeOnInterrupt(dir);
  return dir;
}

export function removeDir(dir: string | undefined): void {
  if (dir === undefined) return;
  rmSync(dir, { recursive: true, force: true });
  forgetDir(dir);
}

export interface BenchConfig {
  bridge?: Record<string, unknown>;
  workspace: Record<string, unknown>[];
  server: Record<string, unknown>[];
}

/**
 * Server keys left out of every config written, comma-separated: an older build measured
 * beside this one (bench/builds.ts) refuses keys it does not know.
 */
export const STRIP_KEYS_ENV = "THEODOLITE_BENCH_STRIP_KEYS";

/** Write `dir`/bridge.toml and return its path. */
export function writeBridgeConfig(config: BenchConfig, dir: string): string {
  const path = join(dir, "bridge.toml");
  const strip = (process.env[STRIP_KEYS_ENV] ?? "").split(",").filter((k) => k !== "");
  // a key, or a table's key as `table.key` (ready.project_files)
  const without = (table: Record<string, unknown>, prefix: string): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(table)
        .filter(([k]) => !strip.includes(prefix + k))
        .map(([k, v]) =>
          v !== null && typeof v === "object" && !Array.isArray(v)
            ? [k, without(v as Record<string, unknown>, `${prefix}${k}.`)]
            : [k, v],
        ),
    );
  const server = config.server.map((s) => without(s as Record<string, unknown>, ""));
  writeFileSync(path, stringify({ ...config, server } as unknown as Record<string, unknown>));
  return path;
}

/**
 * Resolve once `cond()` holds, polling every `intervalMs` (a liveness poll, not a wait
 * for time to pass); reject after `timeoutMs` naming `what`.
 */
export async function pollUntil(
  cond: () => boolean,
  timeoutMs: number,
  what: string,
  intervalMs = 5,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
