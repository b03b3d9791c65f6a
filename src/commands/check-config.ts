/**
 * `theodolite --check-config PATH` (SPEC §2): validate, resolve binaries, run each version
 * command, print the effective config and one line per check. Exit code 0 when every check
 * passes, 2 otherwise. An invalid config prints nothing here: the `ConfigInvalid` error is
 * rethrown for the CLI to print as its one-line JSON error (exit 2).
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import { type CheckResult, checkLine } from "../config/check-line.ts";
import { loadConfigFile } from "../config/load.ts";
import type { Config, ServerConfig } from "../config/types.ts";
import { isBridgeError } from "../errors.ts";
import { environmentProblems } from "../process/environment.ts";
import { executableProblem, readServerVersion } from "../process/version-pin.ts";

/** Extension point for checks other modules own (required workspace files, SPEC §3.4). */
export type ExtraChecks = (config: Config) => CheckResult[] | Promise<CheckResult[]>;

const BARE = /^[A-Za-z0-9_-]+$/;
const key = (name: string) => (BARE.test(name) ? name : JSON.stringify(name));

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function checkExecutable(subject: string, path: string): CheckResult {
  const problem = executableProblem(path);
  return checkLine(problem === null, subject, problem === null ? path : `${path} ${problem}`);
}

/** The root of the first workspace using the server (any root is fine for a version run). */
function versionCwd(config: Config, server: ServerConfig): string {
  const ws = config.workspaces.find((w) => w.servers.includes(server.name)) ?? config.workspaces[0];
  return ws?.root ?? process.cwd();
}

async function checkServer(config: Config, server: ServerConfig): Promise<CheckResult[]> {
  const subject = `server.${key(server.name)}`;
  const results = [checkExecutable(`${subject}.command`, server.command)];
  const versionBinary = server.version_command?.[0];
  if (versionBinary !== undefined) {
    results.push(checkExecutable(`${subject}.version_command`, versionBinary));
  }
  try {
    const actual = await readServerVersion(server, versionCwd(config, server));
    results.push(
      actual === server.version
        ? checkLine(true, `${subject}.version`, JSON.stringify(actual))
        : checkLine(
            false,
            `${subject}.version`,
            `expected ${JSON.stringify(server.version)}, got ${JSON.stringify(actual)}`,
          ),
    );
  } catch (err) {
    if (!isBridgeError(err)) throw err;
    results.push(checkLine(false, `${subject}.version`, err.message));
  }
  return results;
}

function checkWorkspaceRoot(name: string, root: string): CheckResult {
  const subject = `workspace.${key(name)}.root`;
  try {
    if (!statSync(root).isDirectory())
      return checkLine(false, subject, `${root} is not a directory`);
    accessSync(root, constants.R_OK | constants.X_OK);
    return checkLine(true, subject, root);
  } catch (err) {
    return checkLine(false, subject, `${root}: ${errorText(err)}`);
  }
}

function checkLogFile(file: string): CheckResult {
  const dir = dirname(file);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return checkLine(true, "bridge.log.file", file);
  } catch (err) {
    return checkLine(
      false,
      "bridge.log.file",
      `${dir} is not a writable directory: ${errorText(err)}`,
    );
  }
}

/** SPEC §2: what the bridge refuses to start without, one line each. */
function environmentChecks(): CheckResult[] {
  const problems = environmentProblems();
  const failed = (what: string) => problems.find((p) => p.what === what);
  return [
    ["environment.proc", "/proc", "/proc mounted, of this pid namespace"],
    ["environment.ffi", "bun:ffi", "libc loaded through bun:ffi"],
  ].map(([subject = "", what = "", ok = ""]) => {
    const problem = failed(what);
    return problem === undefined
      ? checkLine(true, subject, ok)
      : checkLine(false, subject, `${problem.message} (${problem.hint})`);
  });
}

export async function runCheckConfig(
  path: string,
  out: (line: string) => void,
  extraChecks?: ExtraChecks,
): Promise<number> {
  const config = loadConfigFile(path); // ConfigInvalid propagates untouched, nothing printed
  out(JSON.stringify(config));
  let allOk = true;
  // Printed as they complete: a slow version command should not hide the earlier lines.
  const emit = (results: CheckResult[]) => {
    for (const r of results) {
      allOk &&= r.ok;
      out(r.line);
    }
  };
  emit(environmentChecks());
  if (config.bridge.setpriv !== undefined) {
    const unused = "(unused: theodolite sets the parent-death signal itself, SPEC §9.2)";
    emit([checkLine(true, "bridge.setpriv", `${config.bridge.setpriv} ${unused}`)]);
  }
  if (config.bridge.log.file !== null) emit([checkLogFile(config.bridge.log.file)]);
  for (const server of config.servers) emit(await checkServer(config, server));
  for (const ws of config.workspaces) emit([checkWorkspaceRoot(ws.name, ws.root)]);
  if (extraChecks) emit(await extraChecks(config));
  return allOk ? 0 : 2;
}
