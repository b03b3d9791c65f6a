/**
 * The child subreaper (SPEC §9.2) and self re-execution, from source and in a
 * `bun build --compile` binary built with the project's flags (build.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { isAlive, readProc } from "../../src/process/proctree.ts";
import { reexecEnv, selfCommand } from "../../src/process/self.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor, within } from "../support/wait.ts";
import {
  connect,
  FAKE_LS,
  INIT_PARAMS,
  launchFake,
  pidFromFile,
  Started,
  SUPERVISOR_ENTRY,
} from "./helpers.ts";

interface ProbeReport {
  subreaper: boolean;
  self: number;
  orphan: number;
  orphanPpid: number | null;
  selfCommand: string[];
}

const started = new Started();
afterEach(() => started.cleanup());

function probe(argv: string[]): ProbeReport {
  const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (!r.success) throw new Error(`probe failed: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString()) as ProbeReport;
}

describe("from source", () => {
  test("becomeChildSubreaper succeeds and orphans re-parent to the caller", () => {
    const report = probe([process.execPath, SUPERVISOR_ENTRY, "--probe-subreaper"]);
    expect(report.subreaper).toBe(true);
    expect(report.orphanPpid).toBe(report.self);
    expect(isAlive(report.orphan)).toBe(false);
  });

  test("control: without it, the orphan goes elsewhere", () => {
    const report = probe([process.execPath, SUPERVISOR_ENTRY, "--probe-subreaper", "--control"]);
    expect(report.subreaper).toBe(false);
    expect(report.orphanPpid).not.toBe(report.self);
  });

  test("selfCommand is [bun, main script]", () => {
    const report = probe([process.execPath, SUPERVISOR_ENTRY, "--probe-subreaper"]);
    expect(report.selfCommand).toEqual([process.execPath, SUPERVISOR_ENTRY]);
    expect(selfCommand()).toEqual([process.execPath, Bun.main]);
  });

  test("reexecEnv strips BUN_BE_BUN and BUN_OPTIONS, keeps the rest", () => {
    const env = { PATH: "/bin", BUN_BE_BUN: "1", BUN_OPTIONS: "--smol", FOO: "bar" };
    expect(reexecEnv(env)).toEqual({ PATH: "/bin", FOO: "bar" });
    expect(env.BUN_BE_BUN).toBe("1"); // the input is not mutated
  });
});

describe("compiled (bun build --compile, project flags)", () => {
  let dir = "";
  let binary = "";
  beforeAll(() => {
    dir = tempDir("theodolite-compiled-");
    binary = join(dir, "supervisor-entry");
    const build = Bun.spawnSync(
      [
        process.execPath,
        "build",
        "--compile",
        "--minify",
        "--bytecode",
        "--format=esm",
        "--no-compile-autoload-dotenv",
        "--no-compile-autoload-bunfig",
        "--outfile",
        binary,
        SUPERVISOR_ENTRY,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (!build.success) throw new Error(`compile failed: ${build.stderr.toString()}`);
  });
  afterAll(removeTempDirs);

  test("the subreaper works in the compiled binary and selfCommand is [binary]", () => {
    const report = probe([binary, "--probe-subreaper"]);
    expect(report.subreaper).toBe(true);
    expect(report.orphanPpid).toBe(report.self);
    expect(report.selfCommand).toEqual([binary]);
  });

  test("launching from a compiled binary that was deleted meanwhile still works (/proc/self/exe)", async () => {
    const copy = join(dir, "deleted-later");
    copyFileSync(binary, copy);
    chmodSync(copy, 0o755);
    const bridge = Bun.spawn([copy, "--launch-fake", process.execPath, FAKE_LS], {
      cwd: started.tempDir(),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    started.track(bridge.pid);
    unlinkSync(copy);
    bridge.stdin.write("go\n");
    await bridge.stdin.end();
    expect(await within(bridge.exited, 20_000, "the compiled bridge")).toBe(0);
    const out = JSON.parse(await new Response(bridge.stdout).text()) as {
      serverInfo: unknown;
      end: unknown;
    };
    expect(out).toEqual({
      serverInfo: { name: "fake-ls", version: "0.0.0" },
      end: { exit: { code: 0, signal: null }, path: "exited" },
    });
  });

  test("a compiled supervisor relays, adopts a setsid daemon and reaps it; BUN_BE_BUN is stripped", async () => {
    const tmp = started.tempDir();
    const proc = launchFake(
      started,
      { daemon: "setsid", pidfile: join(tmp, "d.pid") },
      { selfArgv: [binary], extraEnv: { BUN_BE_BUN: "1", BUN_OPTIONS: "--smol" } },
    );
    const daemon = await pidFromFile(started, join(tmp, "d.pid"));
    const lsp = connect(started, proc);
    const init = (await lsp.sendRequest("initialize", INIT_PARAMS)) as { serverInfo: unknown };
    expect(init.serverInfo).toEqual({ name: "fake-ls", version: "0.0.0" });
    await waitFor(() => readProc(daemon)?.ppid === proc.supervisorPid, 5000, { what: "adoption" });
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    expect(await within(proc.terminate(5000), 10_000, "terminate")).toEqual({
      exit: { code: 0, signal: null },
      path: "exited",
    });
    expect(isAlive(daemon)).toBe(false);
  });
});
