/**
 * The session's PID namespace (src/process/pid-namespace.ts, SPEC §9.2): the `NSpid` line,
 * the refusal's words, the exit an init reports for a server's signal, and a spawn whose
 * child is the namespace's init while this process's next children stay where it is.
 */
import { describe, expect, test } from "bun:test";
import { constants } from "node:os";
import {
  mirroredExit,
  namespaceInit,
  parseNsPids,
  refusal,
  spawnContained,
} from "../../../src/process/pid-namespace.ts";
import { hasSysAdmin } from "../../support/unprivileged.ts";

describe("parseNsPids", () => {
  test("reads every level, outermost first", () => {
    expect(parseNsPids("Name:\tbun\nNSpid:\t21222\t2\nNSpgid:\t1\n")).toEqual([21222, 2]);
    expect(parseNsPids("NSpid:\t4242\n")).toEqual([4242]);
  });
  test("no such line (an old kernel): nothing", () => {
    expect(parseNsPids("Name:\tbun\nPid:\t3\n")).toEqual([]);
  });
});

test("refusal names the errno and, for EPERM, the privilege", () => {
  expect(refusal(constants.errno.EPERM)).toBe(
    "unshare(CLONE_NEWPID) failed with EPERM: not root (no CAP_SYS_ADMIN)",
  );
  expect(refusal(constants.errno.ENOSPC)).toBe("unshare(CLONE_NEWPID) failed with ENOSPC");
  expect(refusal(-1)).toBe("libc is unavailable through bun:ffi");
});

describe("mirroredExit", () => {
  const signals = constants.signals as Record<string, number | undefined>;
  test("an init's 128 + n after its note of signal n is that signal", () => {
    const segv = 128 + constants.signals.SIGSEGV;
    expect(mirroredExit({ code: segv, signal: null }, "SIGSEGV", signals)).toEqual({
      code: null,
      signal: "SIGSEGV",
    });
  });
  test("anything else is the supervisor's own exit", () => {
    const own = { code: 3, signal: null };
    expect(mirroredExit(own, undefined, signals)).toEqual(own);
    // a note that does not match the exit (a server writing one on the shared stderr)
    expect(mirroredExit(own, "SIGSEGV", signals)).toEqual(own);
    const killed = { code: null, signal: "SIGKILL" };
    expect(mirroredExit(killed, "SIGSEGV", signals)).toEqual(killed);
    expect(mirroredExit({ code: 139, signal: null }, "SIGNOPE", signals)).toEqual({
      code: 139,
      signal: null,
    });
  });
});

test("this process is no namespace's init", () => {
  expect(namespaceInit()).toBeNull();
});

/** `$$` of a shell and the pid /proc gives it: the same outside a namespace of its own. */
const PIDS = "read -r p rest < /proc/self/stat; echo $$ $p";

async function pidsOf(proc: { stdout: ReadableStream<Uint8Array> }): Promise<number[]> {
  return (await new Response(proc.stdout).text()).trim().split(" ").map(Number);
}

test("spawnContained: with CAP_SYS_ADMIN the child is its namespace's init; our next child is not", async () => {
  let restoreFailed = false;
  const { child, containment } = spawnContained(
    () => Bun.spawn(["/bin/sh", "-c", PIDS], { stdout: "pipe" }),
    () => {
      restoreFailed = true;
    },
  );
  const [own, seen] = await pidsOf(child);
  expect(seen).toBe(child.pid);
  if (hasSysAdmin()) {
    expect(containment).toEqual({ mode: "pid_namespace", reason: null });
    expect(own).toBe(1);
  } else {
    expect(containment.mode).toBe("subreaper");
    expect(containment.reason).toContain("EPERM");
    expect(own).toBe(child.pid);
  }
  expect(restoreFailed).toBe(false);
  // the thread is back in its own namespace: a later child's pids agree
  const after = Bun.spawn(["/bin/sh", "-c", PIDS], { stdout: "pipe" });
  const [ownAfter, seenAfter] = await pidsOf(after);
  expect(ownAfter).toBe(seenAfter);
  expect(seenAfter).toBe(after.pid);
});
