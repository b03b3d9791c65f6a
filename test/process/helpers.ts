/**
 * Shared pieces of the process tests: paths, a launcher for the fake server
 * under a supervisor, and a pid registry that kills whatever a test started.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  createMessageConnection,
  type MessageConnection,
  ReadableStreamMessageReader,
  WriteableStreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { readableOf, writableOf } from "../../src/lsp/byte-streams.ts";
import { launchSupervised, type SupervisedProcess } from "../../src/process/launch.ts";
import { isAlive, readProc } from "../../src/process/proctree.ts";
import type { Scenario } from "../fake-server/scenario.ts";
import { removeTempDir, tempDir } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";

export const FAKE_LS = resolve(import.meta.dir, "../fake-server/fake-ls.ts");
export const SUPERVISOR_ENTRY = resolve(import.meta.dir, "supervisor-entry.ts");
export const MAIN_TS = resolve(import.meta.dir, "../../src/main.ts");

/** Pids a test started (with start times, so a reused pid is never killed). */
export class Started {
  private readonly procs = new Map<number, number | undefined>();
  private readonly dirs: string[] = [];
  private readonly connections: MessageConnection[] = [];

  track(pid: number | undefined): void {
    if (pid === undefined || this.procs.has(pid)) return;
    this.procs.set(pid, readProc(pid)?.startTime);
  }

  tempDir(): string {
    const dir = tempDir("theodolite-proc-");
    this.dirs.push(dir);
    return dir;
  }

  connection(c: MessageConnection): MessageConnection {
    this.connections.push(c);
    return c;
  }

  cleanup(): void {
    for (const c of this.connections.splice(0)) c.dispose();
    for (const [pid, start] of this.procs) {
      if (start !== undefined && isAlive(pid, start)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    this.procs.clear();
    for (const dir of this.dirs.splice(0)) removeTempDir(dir);
  }
}

export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "LANG", "TMPDIR"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** The fake server under a supervisor, launched as the bridge would. */
export function launchFake(
  started: Started,
  scenario: Scenario,
  opts: {
    graceMs?: number;
    selfArgv?: string[];
    cwd?: string;
    extraEnv?: Record<string, string>;
    privateTmp?: boolean;
  } = {},
): SupervisedProcess {
  const proc = launchSupervised({
    command: process.execPath,
    args: [FAKE_LS],
    cwd: opts.cwd ?? started.tempDir(),
    env: { ...baseEnv(), ...opts.extraEnv, FAKE_LS_SCENARIO: JSON.stringify(scenario) },
    graceMs: opts.graceMs ?? 1000,
    ...(opts.privateTmp === undefined ? {} : { privateTmp: opts.privateTmp }),
    selfArgv: opts.selfArgv ?? [process.execPath, SUPERVISOR_ENTRY],
  });
  started.track(proc.supervisorPid);
  void proc.serverPid.then((pid) => started.track(pid));
  return proc;
}

export function connect(started: Started, proc: SupervisedProcess): MessageConnection {
  const c = createMessageConnection(
    new ReadableStreamMessageReader(readableOf(proc.stdout)),
    new WriteableStreamMessageWriter(writableOf(proc.stdin)),
  );
  c.onError(() => {}); // a dying server is the point of several tests
  c.listen();
  return started.connection(c);
}

export const INIT_PARAMS = { processId: process.pid, rootUri: null, capabilities: {} };

/** The pid a daemon (or the fake server) wrote to `path`, once it exists. */
export async function pidFromFile(
  started: Started,
  path: string,
  timeoutMs = 5000,
): Promise<number> {
  const pid = await waitForValue(
    () => {
      try {
        const n = Number(readFileSync(path, "utf8"));
        return Number.isInteger(n) && n > 0 ? n : undefined;
      } catch {
        return undefined;
      }
    },
    timeoutMs,
    { what: `pid file ${path}` },
  );
  started.track(pid);
  return pid;
}
