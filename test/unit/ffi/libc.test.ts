/**
 * libc through bun:ffi (src/ffi/libc.ts): the loader opens the declared symbols once and the
 * same functions answer every later call; errno is the failed call's own.
 */

import { FFIType } from "bun:ffi";
import { expect, test } from "bun:test";
import { constants } from "node:os";
import { cString, lastErrno, lazyLibc } from "../../../src/ffi/libc.ts";

const libc = lazyLibc({
  getpid: { args: [], returns: FFIType.i32 },
  strlen: { args: [FFIType.ptr], returns: FFIType.u64 },
  close: { args: [FFIType.i32], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
} as const);

test("the symbols are loaded once and call into this process's libc", () => {
  const lib = libc();
  if (lib === null) throw new Error("libc must load on the Linux machines theodolite runs on");
  expect(libc()).toBe(lib);
  expect(lib.getpid()).toBe(process.pid);
});

test("errno is read from the failed call", () => {
  const lib = libc();
  if (lib === null) throw new Error("libc must load on the Linux machines theodolite runs on");
  expect(lib.close(-1)).toBe(-1);
  expect(lastErrno(lib.__errno_location)).toBe(constants.errno.EBADF);
});

test("a C string is the UTF-8 bytes, ended by one NUL", () => {
  const lib = libc();
  if (lib === null) throw new Error("libc must load on the Linux machines theodolite runs on");
  expect(Number(lib.strlen(cString("dir/é.py")))).toBe(Buffer.byteLength("dir/é.py"));
  expect([...cString("a")]).toEqual([0x61, 0]);
});
