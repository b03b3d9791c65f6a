/**
 * SPEC §3 "Version pin": before a session starts, run `command version_args` (or
 * `version_command`) with the sanitized environment and compare its output, trimmed of
 * trailing white space, with the configured `version`.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { bounded } from "../bounded.ts";
import type { ServerConfig } from "../config/types.ts";
import { type CheckRun, startCheck } from "./check-run.ts";
import { sanitizedEnv } from "./env.ts";
import {
  serverNotFound,
  versionCheckCancelled,
  versionCheckFailed,
  versionMismatch,
} from "./server-errors.ts";

export const VERSION_TIMEOUT_MS = 10_000;
/** Bytes kept per stream; the rest is read and dropped so the child never blocks on a pipe. */
const STREAM_KEEP_BYTES = 64 * 1024;
/** Bound on the output quoted in error details. */
const DETAIL_OUTPUT_CHARS = 2048;

type VersionServer = Pick<
  ServerConfig,
  "name" | "command" | "version" | "version_args" | "version_command" | "env" | "env_passthrough"
>;

/** The argv that prints the server's version: `version_command`, else `command version_args`. */
export function versionArgv(server: VersionServer): string[] {
  return server.version_command ?? [server.command, ...server.version_args];
}

/** Why `path` cannot be executed ("does not exist", …), or null when it is an executable file. */
export function executableProblem(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return "is not a regular file";
    accessSync(path, constants.X_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : "is not executable";
  }
}

/** Throws `ServerNotFound` unless `path` is an existing, executable regular file. */
export function assertExecutable(path: string, serverName: string): void {
  const problem = executableProblem(path);
  if (problem !== null) {
    throw serverNotFound(serverName, path, problem);
  }
}

interface Collected {
  done: Promise<void>;
  text: () => string;
  cancel: () => void;
}

function collect(stream: ReadableStream<Uint8Array>): Collected {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  const reader = stream.getReader();
  const done = (async () => {
    for (;;) {
      const { done: ended, value } = await reader.read();
      if (ended) return;
      if (kept < STREAM_KEEP_BYTES) {
        const slice = value.subarray(0, STREAM_KEEP_BYTES - kept);
        chunks.push(slice);
        kept += slice.length;
      }
    }
  })().catch(() => undefined);
  return {
    done,
    text: () => new TextDecoder().decode(Buffer.concat(chunks)),
    cancel: () => {
      reader.cancel().catch(() => undefined);
    },
  };
}

function truncated(text: string): string {
  return text.length > DETAIL_OUTPUT_CHARS
    ? `${text.slice(0, DETAIL_OUTPUT_CHARS)}…(truncated)`
    : text;
}

/**
 * Run the version command (absolute path, no shell, stdin ignored, cwd = `cwd`) contained
 * like a session's tree (check-run.ts, SPEC §9.2), and return its stdout trimmed of trailing
 * white space, or stderr when stdout is empty (some tools print their version there).
 * `ServerNotFound` for a missing binary; `ServerStartFailed` for a nonzero exit or a run
 * longer than `timeoutMs`; `Cancelled` when `signal` aborts first (a bridge shutting down).
 * Whichever way it ends, nothing the command started outlives it.
 */
export async function readServerVersion(
  server: VersionServer,
  cwd: string,
  timeoutMs: number = VERSION_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<string> {
  const argv = versionArgv(server);
  const command = argv[0] ?? server.command;
  assertExecutable(command, server.name);
  const failed = (message: string, details: Record<string, unknown>) =>
    versionCheckFailed(server.name, argv, command, message, details);
  const cancelled = () => versionCheckCancelled(server.name, command);
  if (signal?.aborted) throw cancelled();

  let run: CheckRun;
  try {
    run = startCheck(argv, { cwd, env: sanitizedEnv(server) });
  } catch (err) {
    const reason = existsSync(cwd)
      ? err instanceof Error
        ? err.message
        : String(err)
      : `working directory ${cwd} does not exist`;
    throw failed(`could not run the version command: ${reason}`, { exit_code: null, output: "" });
  }
  const stdout = collect(run.stdout);
  const stderr = collect(run.stderr);
  const deadline = Date.now() + timeoutMs;

  // A bound, not a wait: it ends as soon as the command exits, or the caller gives up
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  const exited = run.exited.then(() => "exited" as const);
  const outcome = await bounded(Promise.race([exited, aborted]), timeoutMs);
  if (onAbort) signal?.removeEventListener("abort", onAbort);
  // the check is over: the command and everything it started are killed
  await run.end();
  const exit = (await bounded(run.exited, 0)) ?? { code: null, signal: "SIGKILL" };
  // its output closes once every holder is gone (in its namespace: now)
  const drained =
    outcome === "exited"
      ? await bounded(Promise.all([stdout.done, stderr.done]), Math.max(0, deadline - Date.now()))
      : undefined;

  const output = () => truncated(`${stdout.text()}${stderr.text()}`.trimEnd());
  if (drained === undefined) {
    stdout.cancel();
    stderr.cancel();
    if (outcome === "aborted") throw cancelled();
    throw failed(
      outcome === undefined
        ? `the version command did not finish within ${timeoutMs} ms and was killed`
        : `the version command exited but kept its output open for over ${timeoutMs} ms`,
      { exit_code: exit.code, timed_out: true, output: output() },
    );
  }
  if (exit.code !== 0) {
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited ${exit.code}`;
    throw failed(`the version command ${how}`, {
      exit_code: exit.code,
      signal: exit.signal,
      output: output(),
    });
  }
  const out = stdout.text().trimEnd();
  return out !== "" ? out : stderr.text().trimEnd();
}

/**
 * SPEC §3: the pinned `version` must equal the actual output; returns the actual string.
 * `signal`: the bridge is exiting (`Cancelled`, the check killed).
 */
export async function verifyVersionPin(
  server: VersionServer,
  cwd: string,
  signal?: AbortSignal,
): Promise<string> {
  const actual = await readServerVersion(server, cwd, VERSION_TIMEOUT_MS, signal);
  if (actual !== server.version) {
    throw versionMismatch(server.name, server.version, actual);
  }
  return actual;
}
