/**
 * `--exec-server` driven directly (SPEC §9.2): it becomes the server only under the parent
 * it was told, and says why it did not otherwise.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawnContained } from "../../src/process/pid-namespace.ts";
import { removeTempDir, tempDir } from "../support/temp-dirs.ts";
import { hasSysAdmin } from "../support/unprivileged.ts";
import { within } from "../support/wait.ts";
import { SUPERVISOR_ENTRY } from "./helpers.ts";

function execServer(argv: string[]) {
  return Bun.spawn([process.execPath, SUPERVISOR_ENTRY, "--exec-server", ...argv], {
    stdout: "pipe",
    stderr: "pipe",
  });
}

describe("--exec-server", () => {
  test("under its parent it becomes the server: same pid, the server's output", async () => {
    const proc = execServer([
      "--parent-pid",
      String(process.pid),
      "--",
      "/bin/sh",
      "-c",
      "echo $$",
    ]);
    expect(await within(proc.exited, 10_000, "exit")).toBe(0);
    expect(Number((await new Response(proc.stdout).text()).trim())).toBe(proc.pid);
  });

  test("under another parent (the supervisor died first) the server is not started", async () => {
    const dir = tempDir("theodolite-exec-");
    try {
      const marker = join(dir, "ran");
      const proc = execServer(["--parent-pid", "1", "--", "/bin/sh", "-c", `: > ${marker}`]);
      expect(await within(proc.exited, 10_000, "exit")).toBe(1);
      expect(await new Response(proc.stderr).text()).toContain("the supervisor is gone");
      expect(existsSync(marker)).toBe(false);
    } finally {
      removeTempDir(dir);
    }
  });

  test("as the init of a PID namespace (getppid() is 0 there) it knows its parent from /proc", async () => {
    const spawn = (parent: number) =>
      spawnContained(
        () => execServer(["--parent-pid", String(parent), "--", "/bin/sh", "-c", "echo $$"]),
        () => {},
      );
    const ours = spawn(process.pid);
    const inNamespace = ours.containment.mode === "pid_namespace";
    expect(inNamespace).toBe(hasSysAdmin());
    expect(await within(ours.child.exited, 10_000, "exit")).toBe(0);
    const pid = Number((await new Response(ours.child.stdout).text()).trim());
    expect(pid).toBe(inNamespace ? 1 : ours.child.pid);
    // another parent named: not started
    const other = spawn(1);
    expect(await within(other.child.exited, 10_000, "exit")).toBe(1);
    expect(await new Response(other.child.stderr).text()).toContain("the supervisor is gone");
  });

  test("invalid argv: usage on stderr, exit 2", async () => {
    const proc = execServer(["--", "/bin/true"]);
    expect(await within(proc.exited, 10_000, "exit")).toBe(2);
    expect(await new Response(proc.stderr).text()).toContain("usage: --exec-server");
  });
});
