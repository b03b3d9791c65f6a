/** What the machine must offer (SPEC §2): the texts judged from what was read, pure. */
import { describe, expect, test } from "bun:test";
import {
  addressSpaceLimit,
  environmentProblems,
  ffiProblem,
  JIT_RESERVATION_ENV,
  procProblem,
} from "../../../src/process/environment.ts";

const STAT = (pid: number) => `${pid} (theodolite) S 1 ${pid} ${pid} 0 -1 ${"0 ".repeat(15)}77 0 0`;

describe("procProblem", () => {
  test("/proc/self names this process and its stat line parses: no problem", () => {
    expect(procProblem("4242", STAT(4242), 4242)).toBeNull();
  });

  test("no /proc: says so, with the mount to add", () => {
    const p = procProblem(null, null, 4242);
    expect(p?.what).toBe("/proc");
    expect(p?.message).toContain("/proc is not mounted");
    expect(p?.hint).toContain("mount procfs");
  });

  test("a /proc of another pid namespace: both pids named", () => {
    const p = procProblem("81234", null, 1);
    expect(p?.message).toContain("another pid namespace");
    expect(p?.message).toContain("/proc/self is 81234");
    expect(p?.message).toContain("this process is 1");
  });
});

describe("addressSpaceLimit", () => {
  const limits = (soft: string) =>
    `Limit                     Soft Limit           Hard Limit           Units     \nMax address space         ${soft}            unlimited            bytes     \n`;

  test("the soft limit in bytes; unlimited or unreadable is null", () => {
    expect(addressSpaceLimit(limits("2147483648"))).toBe(2147483648);
    expect(addressSpaceLimit(limits("unlimited"))).toBeNull();
    expect(addressSpaceLimit("")).toBeNull();
  });
});

describe("ffiProblem", () => {
  test("bun:ffi works: no problem", () => {
    expect(ffiProblem(null, 2147483648)).toBeNull();
  });

  test("under an address-space limit: the limit and the variable that lifts it", () => {
    const p = ffiProblem("bun:ffi requires the JIT", 2147483648);
    expect(p?.what).toBe("bun:ffi");
    expect(p?.message).toContain("bun:ffi requires the JIT");
    expect(p?.message).toContain("2048 MiB (RLIMIT_AS");
    expect(p?.hint).toContain(JIT_RESERVATION_ENV);
  });

  test("without a limit: no variable suggested", () => {
    const p = ffiProblem("dlopen failed", null);
    expect(p?.message).not.toContain("RLIMIT_AS");
    expect(p?.hint).not.toContain(JIT_RESERVATION_ENV);
  });
});

describe("environmentProblems", () => {
  test("this machine offers both", () => {
    expect(environmentProblems()).toEqual([]);
  });
});
