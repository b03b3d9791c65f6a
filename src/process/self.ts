/**
 * How this program re-executes itself as `--supervise` and `--exec-server` (SPEC §9.2,
 * docs/TOOLCHAIN.md#the-compiled-binary-at-run-time).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isCompiled } from "../version.ts";

/** argv prefix that runs this program again: compiled → [binary]; from source → [bun, main script]. */
export function selfCommand(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, Bun.main];
}

/**
 * argv prefix that runs `--exec-server` for a command the bridge starts itself (a version
 * check, check-run.ts): compiled → [binary]; from source → [bun, src/main.ts], whatever
 * script runs (`Bun.main` is the test file under `bun test`).
 */
export function execServerCommand(): string[] {
  return isCompiled()
    ? [process.execPath]
    : [process.execPath, join(import.meta.dir, "..", "main.ts")];
}

/**
 * What to hand `Bun.spawn` for `argv`: if our own binary was replaced or deleted since
 * start, its path fails to spawn while /proc/self/exe still names the running image, so
 * that is the file run, with the usual name as argv[0].
 */
export function spawnable(argv: readonly string[]): { cmd: string[]; argv0: string } {
  const [file = "", ...rest] = argv;
  const exe = file === process.execPath && existsSync("/proc/self/exe") ? "/proc/self/exe" : file;
  return { cmd: [exe, ...rest], argv0: file };
}

/**
 * The environment for a re-executed copy of this program. A compiled binary
 * honours BUN_BE_BUN (it would act as the bun CLI) and BUN_OPTIONS: strip both.
 */
export function reexecEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key === "BUN_BE_BUN" || key === "BUN_OPTIONS") continue;
    out[key] = value;
  }
  return out;
}

/** Names the launcher added to the supervisor's environment, for it to remove again. */
export const SUPERVISOR_ONLY_ENV = "THEODOLITE_SUPERVISOR_ENV";

/**
 * JSC options for the supervisor (and `--exec-server`): no baseline, optimizing or
 * concurrent JIT. It runs a 50 ms poll and a reap, never hot code, and saves the JIT's
 * thread and memory (docs/PERFORMANCE.md). The JIT itself stays on, and
 * with it bun:ffi (useJIT=0 would disable FFI, which it needs for prctl and execve), with
 * a small executable-memory reservation: the default one cannot be made under a low
 * address-space limit, which disables FFI (docs/TOOLCHAIN.md#the-compiled-binary-at-run-time).
 */
const SUPERVISOR_JSC: Record<string, string> = {
  BUN_JSC_useBaselineJIT: "0",
  BUN_JSC_useDFGJIT: "0",
  BUN_JSC_useConcurrentJIT: "0",
  BUN_JSC_jitMemoryReservationSize: String(16 * 1024 * 1024),
};

/**
 * The supervisor's environment: the server's (re-exec safe) plus SUPERVISOR_JSC. Those
 * variables are meant for the supervisor alone, so they are named in SUPERVISOR_ONLY_ENV
 * and the supervisor starts the server without them (serverEnv). A server environment
 * that sets any JSC option itself is left as it is (and the supervisor keeps its JIT).
 */
export function supervisorEnv(env: Record<string, string>): Record<string, string> {
  const out = reexecEnv(env);
  if (SUPERVISOR_ONLY_ENV in out || Object.keys(out).some((k) => k.startsWith("BUN_JSC_"))) {
    return out;
  }
  return {
    ...out,
    ...SUPERVISOR_JSC,
    [SUPERVISOR_ONLY_ENV]: Object.keys(SUPERVISOR_JSC).join(","),
  };
}

/** The server's environment inside the supervisor: its own, minus what supervisorEnv added. */
export function serverEnv(env: Record<string, string | undefined>): Record<string, string> {
  const added = new Set((env[SUPERVISOR_ONLY_ENV] ?? "").split(",").filter((n) => n !== ""));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || key === SUPERVISOR_ONLY_ENV || added.has(key)) continue;
    out[key] = value;
  }
  return out;
}
