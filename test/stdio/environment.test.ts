/**
 * The machine the compiled binary runs on (SPEC §2 "Environment", §9.2): a session needs no
 * program from outside the binary (no setpriv on PATH, a stale `bridge.setpriv` ignored);
 * without libc through bun:ffi (an address-space limit of 2 GiB) or with a /proc of another
 * pid namespace the bridge refuses to start with EnvironmentUnsupported and exit 3, and the
 * variable its hint names makes it serve under the same limit. A /proc that is missing
 * altogether is .ci/release-check.ts's (the glibc build aborts inside Bun before any
 * JavaScript runs; the musl build is the one that can say so).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JIT_RESERVATION_ENV } from "../../src/process/environment.ts";
import { readProc } from "../../src/process/proctree.ts";
import {
  closeAllBridges,
  ensureBinary,
  fakeServer,
  startBridge,
  writeConfig,
} from "../support/bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

/** RLIMIT_AS under which JavaScriptCore cannot reserve its JIT memory: bun:ffi is refused. */
const TWO_GIB = 2 * 1024 * 1024 * 1024;
const prlimit = Bun.which("prlimit");
const underCI = process.env.CI !== undefined && process.env.CI !== "";

function oneFakeSession(bridge: Record<string, unknown> = {}): { config: string; root: string } {
  const root = tempDir();
  writeFileSync(join(root, "a.fake"), "hello\n");
  const config = writeConfig({
    bridge,
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [fakeServer("fake", { responses: { "textDocument/hover": { contents: "hi" } } })],
  });
  return { config, root };
}

function run(argv: string[], env: Record<string, string> = {}) {
  const r = Bun.spawnSync(argv, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe("no helper outside the binary", () => {
  test("a session reaches ready with no setpriv on PATH, and a stale bridge.setpriv is ignored", async () => {
    const emptyPath = tempDir("theodolite-empty-path-");
    expect(Bun.which("setpriv", { PATH: emptyPath })).toBeNull();
    const { config } = oneFakeSession({ setpriv: join(emptyPath, "setpriv") });
    const bridge = await startBridge({ config, env: { PATH: emptyPath } });
    const status = await bridge.call("session_status", { start: true });
    const session = (status.structured.sessions as Record<string, unknown>[])[0] ?? {};
    expect(session.state).toBe("ready");
    const { supervisor, server } = session.pids as { supervisor: number; server: number };
    // the server is the supervisor's own child, its program the configured one (execve'd)
    expect(readProc(server)?.ppid).toBe(supervisor);
    const argv = readFileSync(`/proc/${server}/cmdline`, "utf8").split("\0");
    expect(argv[0]).toBe(process.execPath);
    expect((await bridge.call("hover", { file: "a.fake", line: 1, column: 1 })).isError).toBe(
      false,
    );
  });
});

describe.skipIf(prlimit === null)("bun:ffi unavailable (RLIMIT_AS = 2 GiB)", () => {
  const limited = [prlimit ?? "prlimit", `--as=${TWO_GIB}`];

  test("serving is refused at start: EnvironmentUnsupported, exit 3, the way out in the hint", () => {
    const { config } = oneFakeSession();
    const r = run([...limited, ensureBinary(), "--config", config, "--isolated"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    const err = JSON.parse(r.stderr.trim()) as { code: string; message: string; hint: string };
    expect(err.code).toBe("EnvironmentUnsupported");
    expect(err.message).toContain("bun:ffi requires the JIT");
    expect(err.message).toContain("2048 MiB (RLIMIT_AS");
    expect(err.hint).toContain(JIT_RESERVATION_ENV);
  });

  test("--check-config says it in a FAIL line (exit 2); --version still answers", () => {
    const { config } = oneFakeSession();
    const check = run([...limited, ensureBinary(), "--check-config", config]);
    expect(check.code).toBe(2);
    expect(check.stdout).toContain("ok   environment.proc /proc mounted, of this pid namespace");
    expect(check.stdout).toMatch(/^FAIL environment.ffi libc is unavailable through bun:ffi/m);
    expect(run([...limited, ensureBinary(), "--version"]).code).toBe(0);
  });

  test("with the hint's variable the bridge serves under the same limit: a session, a file read", async () => {
    const { config } = oneFakeSession();
    const [name = "", value = ""] = JIT_RESERVATION_ENV.split("=");
    const bridge = await startBridge({ config, prefix: limited, env: { [name]: value } });
    const status = await bridge.call("session_status", { start: true });
    const session = (status.structured.sessions as Record<string, unknown>[])[0] ?? {};
    // the server started at all: --exec-server (run like the supervisor, with its own small
    // reservation) had bun:ffi under the limit
    expect(session.state).toBe("ready");
    const hover = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(hover.isError).toBe(false);
  });
});

describe("a /proc of another pid namespace", () => {
  // a new pid namespace without its own procfs mounted: /proc/self names the outer pid
  const probe = run(["unshare", "--pid", "--fork", "true"]);
  const available = probe.code === 0;

  test.skipIf(!available && !underCI)("serving is refused: EnvironmentUnsupported, exit 3", () => {
    const { config } = oneFakeSession();
    const r = run(["unshare", "--pid", "--fork", ensureBinary(), "--config", config, "--isolated"]);
    expect(r.code).toBe(3);
    const err = JSON.parse(r.stderr.trim()) as { code: string; message: string };
    expect(err.code).toBe("EnvironmentUnsupported");
    expect(err.message).toContain("another pid namespace");
    expect(err.message).toContain("this process is 1");
  });
});
