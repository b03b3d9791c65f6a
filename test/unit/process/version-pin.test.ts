/** SPEC §3 "Version pin": readServerVersion and verifyVersionPin against real executables. */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../../src/config/types.ts";
import { readServerVersion, verifyVersionPin } from "../../../src/process/version-pin.ts";
import { gone, readPid } from "../../support/processes.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { rejected } from "../../support/thrown.ts";
import { waitFor, waitForValue } from "../../support/wait.ts";

const tmp = tempDir("theodolite-version-");
const cwd = join(tmp, "work");
mkdirSync(cwd);
const spawnedPids: number[] = [];

afterEach(() => {
  for (const pid of spawnedPids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
afterAll(removeTempDirs);

/**
 * The shell writes its pid as `/proc` names it to "$1": `$$` is its pid inside the check's
 * own PID namespace (SPEC §9.2), 1 there.
 */
const WRITE_OWN_PID = 'read -r pid _ < /proc/self/stat; echo "$pid" > "$1"';

function script(name: string, body: string, mode = 0o755): string {
  const path = join(tmp, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

type VersionServer = Pick<
  ServerConfig,
  "name" | "command" | "version" | "version_args" | "version_command" | "env" | "env_passthrough"
>;

function server(command: string, over: Partial<VersionServer> = {}): VersionServer {
  return {
    name: "fixture",
    command,
    version: "tool 1.2.3",
    version_args: ["--version"],
    version_command: null,
    env: {},
    env_passthrough: [],
    ...over,
  };
}

describe("readServerVersion", () => {
  test("returns stdout trimmed of trailing white space only", async () => {
    const cmd = script("ok", "printf '  tool 1.2.3 (abc)\\n\\n \\t'");
    expect(await readServerVersion(server(cmd), cwd)).toBe("  tool 1.2.3 (abc)");
  });

  test("passes version_args", async () => {
    const cmd = script("args", 'echo "args:$*"');
    expect(await readServerVersion(server(cmd, { version_args: ["version", "-v"] }), cwd)).toBe(
      "args:version -v",
    );
  });

  test("uses stderr when stdout is empty", async () => {
    const cmd = script("stderr", "echo 'tool 9.9' >&2");
    expect(await readServerVersion(server(cmd), cwd)).toBe("tool 9.9");
  });

  test("version_command replaces command + version_args", async () => {
    const sibling = script("sibling", 'echo "sibling:$*"');
    const s = server(script("langserver", "echo wrong"), {
      version_command: [sibling, "--version"],
    });
    expect(await readServerVersion(s, cwd)).toBe("sibling:--version");
  });

  test("runs in cwd with the sanitized environment, stdin closed", async () => {
    const cmd = script(
      "env",
      'read line; echo "pwd=$(pwd) secret=[$THEODOLITE_TEST_SECRET] mine=$MINE stdin=$line"',
    );
    process.env.THEODOLITE_TEST_SECRET = "leak";
    try {
      const out = await readServerVersion(server(cmd, { env: { MINE: "set" } }), cwd);
      expect(out).toBe(`pwd=${cwd} secret=[] mine=set stdin=`);
    } finally {
      delete process.env.THEODOLITE_TEST_SECRET;
    }
  });

  test("missing binary: ServerNotFound with the command", async () => {
    const missing = join(tmp, "no-such-server");
    const err = await rejected(readServerVersion(server(missing), cwd));
    expect(err.code).toBe("ServerNotFound");
    expect(err.details?.command).toBe(missing);
    expect(err.message).toContain("does not exist");
  });

  test("missing version_command binary: ServerNotFound naming it", async () => {
    const missing = join(tmp, "no-such-pyright");
    const s = server(script("ls2", "echo x"), { version_command: [missing, "--version"] });
    const err = await rejected(readServerVersion(s, cwd));
    expect(err.code).toBe("ServerNotFound");
    expect(err.details?.command).toBe(missing);
  });

  test("non-executable file: ServerNotFound", async () => {
    const cmd = script("noexec", "echo tool", 0o644);
    const err = await rejected(readServerVersion(server(cmd), cwd));
    expect(err.code).toBe("ServerNotFound");
    expect(err.message).toContain("is not executable");
  });

  test("a directory: ServerNotFound", async () => {
    const err = await rejected(readServerVersion(server(cwd), cwd));
    expect(err.code).toBe("ServerNotFound");
  });

  test("nonzero exit: ServerStartFailed with exit code and output", async () => {
    const cmd = script("fail", "echo 'unknown flag --version' >&2; exit 3");
    const err = await rejected(readServerVersion(server(cmd), cwd));
    expect(err.code).toBe("ServerStartFailed");
    expect(err.details?.command).toBe(cmd);
    expect(err.details?.exit_code).toBe(3);
    expect(err.details?.output).toBe("unknown flag --version");
  });

  test("failure output is bounded to 2 KB", async () => {
    const cmd = script(
      "loud",
      "i=0; while [ $i -lt 500 ]; do echo 'xxxxxxxxxxxxxxxxxxxx'; i=$((i+1)); done; exit 1",
    );
    const err = await rejected(readServerVersion(server(cmd), cwd));
    expect(err.code).toBe("ServerStartFailed");
    const output = String(err.details?.output);
    expect(output.length).toBeLessThanOrEqual(2048 + "…(truncated)".length);
    expect(output).toEndWith("…(truncated)");
  });

  test("timeout: ServerStartFailed and the child is killed", async () => {
    const pidFile = join(tmp, "sleeper.pid");
    const cmd = script("sleeper", `${WRITE_OWN_PID}; exec sleep 30`);
    const started = Date.now();
    const err = await rejected(
      readServerVersion(server(cmd, { version_args: [pidFile] }), cwd, 300),
    );
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    spawnedPids.push(pid);
    expect(err.code).toBe("ServerStartFailed");
    expect(err.details?.timed_out).toBe(true);
    expect(err.message).toContain("did not finish within 300 ms");
    expect(Date.now() - started).toBeLessThan(10_000);
    // the kill is synchronous; reaping may lag
    await waitFor(() => gone(pid), 5000, { what: "the timed-out version command to be gone" });
  });

  test("abort: Cancelled at once and the child is killed", async () => {
    const pidFile = join(tmp, "aborted.pid");
    const cmd = script("aborted", `${WRITE_OWN_PID}; exec sleep 30`);
    const stop = new AbortController();
    const pending = rejected(
      readServerVersion(server(cmd, { version_args: [pidFile] }), cwd, 60_000, stop.signal),
    );
    const started = Date.now();
    // the file exists (empty) before the shell writes its pid: wait for the number, since
    // a pid of 0 here would make the cleanup's kill(0) hit the test runner's own group
    const pid = await waitForValue(() => readPid(pidFile), 10_000, {
      what: "the version command's pid",
    });
    spawnedPids.push(pid);
    expect(gone(pid)).toBe(false);
    stop.abort();
    const err = await pending;
    expect(err.code).toBe("Cancelled");
    expect(Date.now() - started).toBeLessThan(10_000);
    await waitFor(() => gone(pid), 5000, { what: "the aborted version command to be gone" });
  });
});

describe("verifyVersionPin", () => {
  test("a matching pin returns the actual version", async () => {
    const cmd = script("pinned", "echo 'tool 1.2.3'");
    expect(await verifyVersionPin(server(cmd), cwd)).toBe("tool 1.2.3");
  });

  test("a mismatch: ServerVersionMismatch with expected and actual", async () => {
    const cmd = script("newer", "echo 'tool 1.3.0'");
    const err = await rejected(verifyVersionPin(server(cmd), cwd));
    expect(err.code).toBe("ServerVersionMismatch");
    expect(err.details?.expected).toBe("tool 1.2.3");
    expect(err.details?.actual).toBe("tool 1.3.0");
    expect(err.hint).toContain('version = "tool 1.3.0"');
  });
});
