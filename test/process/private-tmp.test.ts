/**
 * A server's own temporary directory (SPEC §9.2, src/process/private-tmp.ts): the
 * launcher makes it, the server gets it as TMPDIR, and it is gone with everything in it
 * once the tree is — on the orderly path, when a server that ignores its input is killed,
 * when the bridge dies (its supervisor removes it) and when the supervisor is killed (the
 * launcher does). Links inside, or in its place, are never followed.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { PRIVATE_TMP_PREFIX } from "../../src/process/private-tmp.ts";
import { FakeProbe, workspace } from "../fake-server/harness.ts";
import { closeAllBridges, startBridge, writeConfig } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";
import { connect, INIT_PARAMS, launchFake, pidFromFile, Started } from "./helpers.ts";

const started = new Started();
afterEach(async () => {
  started.cleanup();
  await closeAllBridges();
});
afterAll(removeTempDirs);

/** The supervised fake's TMPDIR, as the server sees it, and a file it wrote there. */
async function serverTmp(opts: { privateTmp: boolean; base: string; ignoreEof?: boolean }) {
  const proc = launchFake(started, opts.ignoreEof ? { ignore_stdin_eof: true } : {}, {
    privateTmp: opts.privateTmp,
    extraEnv: { TMPDIR: opts.base },
    graceMs: 300,
  });
  const lsp = connect(started, proc);
  await lsp.sendRequest("initialize", INIT_PARAMS);
  lsp.sendNotification("initialized", {});
  const report = (await lsp.sendRequest("fake/tmpdir")) as { tmpdir: string; file: string | null };
  return { proc, lsp, ...report };
}

/** Something outside the private directory that a link inside it names. */
function outsideTree(): { dir: string; file: string } {
  const dir = started.tempDir();
  const file = join(dir, "keep.txt");
  writeFileSync(file, "not the server's\n");
  return { dir, file };
}

describe("a supervised server's private temporary directory", () => {
  test("a fresh 0700 directory beneath the given TMPDIR, removed with what the server left after an orderly exit", async () => {
    const base = started.tempDir();
    const { proc, lsp, tmpdir, file } = await serverTmp({ privateTmp: true, base });
    expect(dirname(tmpdir)).toBe(base);
    expect(basename(tmpdir).startsWith(`${PRIVATE_TMP_PREFIX}${process.pid}-`)).toBe(true);
    expect(statSync(tmpdir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file ?? "", "utf8")).toBe("left by the fake server\n");
    // what a server may leave: a nested tree, and links to things that are not its own
    const outside = outsideTree();
    mkdirSync(join(tmpdir, "nested", "deeper"), { recursive: true });
    writeFileSync(join(tmpdir, "nested", "deeper", "x"), "x");
    symlinkSync(outside.dir, join(tmpdir, "link-to-dir"));
    symlinkSync(outside.file, join(tmpdir, "nested", "link-to-file"));

    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    const end = await proc.terminate(5000);
    expect(end.path).toBe("exited");
    expect(existsSync(tmpdir)).toBe(false);
    expect(readFileSync(outside.file, "utf8")).toBe("not the server's\n");
  });

  test("removed when a server that ignores its input is killed after the grace", async () => {
    const base = started.tempDir();
    const { proc, tmpdir } = await serverTmp({ privateTmp: true, base, ignoreEof: true });
    expect(existsSync(tmpdir)).toBe(true);
    // no shutdown first: the ladder's input close at once, then the supervisor's grace
    const end = await proc.terminate(100);
    expect(end.exit.signal).toBe("SIGKILL");
    expect(existsSync(tmpdir)).toBe(false);
  });

  test("the directory swapped for a link: the link goes, what it named stays", async () => {
    const base = started.tempDir();
    const { proc, lsp, tmpdir } = await serverTmp({ privateTmp: true, base });
    const outside = outsideTree();
    const movedAway = join(started.tempDir(), "moved");
    renameSync(tmpdir, movedAway);
    symlinkSync(outside.dir, tmpdir);
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    await proc.terminate(5000);
    expect(existsSync(tmpdir) || isLink(tmpdir)).toBe(false);
    expect(readFileSync(outside.file, "utf8")).toBe("not the server's\n");
  });

  test("the supervisor SIGKILLed: the launcher removes it once the tree is reaped", async () => {
    const base = started.tempDir();
    const { proc, tmpdir, file } = await serverTmp({ privateTmp: true, base });
    expect(existsSync(file ?? "")).toBe(true);
    process.kill(proc.supervisorPid, "SIGKILL");
    const exit = await proc.exited;
    expect(exit.signal).toBe("SIGKILL");
    expect(existsSync(tmpdir)).toBe(false);
  });

  test("cannot be made: the server keeps the one it was given and starts as ever", async () => {
    const base = join(started.tempDir(), "missing");
    const { proc, lsp, tmpdir, file } = await serverTmp({ privateTmp: true, base });
    expect(tmpdir).toBe(base);
    expect(file).toBeNull(); // the fake could not write there either
    expect(await proc.serverPid).toBeGreaterThan(0);
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    expect((await proc.terminate(5000)).path).toBe("exited");
  });

  test("not asked for: the server keeps the TMPDIR it was given, and nothing is removed", async () => {
    const base = started.tempDir();
    const { proc, lsp, tmpdir, file } = await serverTmp({ privateTmp: false, base });
    expect(tmpdir).toBe(base);
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    await proc.terminate(5000);
    expect(readFileSync(file ?? "", "utf8")).toBe("left by the fake server\n");
  });
});

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The TMPDIR in a live process's environment. */
function environTmpdir(pid: number): string | undefined {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  return entries.find((e) => e.startsWith("TMPDIR="))?.slice("TMPDIR=".length);
}

describe("through the bridge", () => {
  async function bridgeWithFake(extra: Record<string, unknown>, base = started.tempDir()) {
    const pidfile = join(started.tempDir(), "server.pid");
    const fake = new FakeProbe("fake");
    const ws = workspace({ "a.fake": "alpha\n" });
    const config = writeConfig({
      workspace: [{ name: "w", root: ws.root, servers: ["fake"] }],
      server: [fake.server({ pidfile_server: pidfile }, extra)],
    });
    const bridge = await startBridge({ config, env: { TMPDIR: base } });
    const status = await bridge.call("session_status", { start: true });
    expect(status.isError).toBe(false);
    const pid = await pidFromFile(started, pidfile);
    started.track(pid);
    return { bridge, base, pid };
  }

  test("each server gets its own directory; the next bridge removes one a killed bridge left", async () => {
    const { bridge, base, pid } = await bridgeWithFake({});
    const tmp = environTmpdir(pid);
    expect(tmp).toBeDefined();
    expect(dirname(tmp as string)).toBe(base);
    expect(basename(tmp as string).startsWith(PRIVATE_TMP_PREFIX)).toBe(true);
    expect(existsSync(tmp as string)).toBe(true);
    writeFileSync(join(tmp as string, "left.tmp"), "left\n");
    // the bridge killed outright: its supervisor dies with it (in its own PID namespace at
    // once, with no time to remove anything); the next bridge's first session removes it
    process.kill(bridge.pid, "SIGKILL");
    await waitFor(() => !existsSync(`/proc/${pid}`), 10_000, { what: "the server gone" });
    await bridgeWithFake({}, base);
    await waitFor(() => !existsSync(tmp as string), 10_000, {
      what: "the private TMPDIR of the killed bridge removed",
    });
  });

  test("a TMPDIR the server's env sets is kept as configured", async () => {
    const chosen = started.tempDir();
    const { bridge, pid } = await bridgeWithFake({ env: { TMPDIR: chosen } });
    expect(environTmpdir(pid)).toBe(chosen);
    writeFileSync(join(chosen, "kept.tmp"), "kept\n");
    await bridge.close();
    await waitFor(() => !existsSync(`/proc/${pid}`), 10_000, { what: "the server gone" });
    expect(readFileSync(join(chosen, "kept.tmp"), "utf8")).toBe("kept\n");
    rmSync(join(chosen, "kept.tmp"));
  });
});
