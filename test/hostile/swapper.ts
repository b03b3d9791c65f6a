/**
 * The attacker of the race tests: exchanges two directory entries atomically
 * (renameat2 RENAME_EXCHANGE), as fast as it can, until it is killed.
 * Usage: bun swapper.ts <path-a> <path-b> [hold-ms]. Prints "ready" once the first
 * exchange worked, and the count of exchanges on SIGTERM. With hold-ms, it pauses that
 * long after every burst of BURST_MS, the entries back in place: an attacker's rhythm
 * that lets whole operations through between the races and leaves the machine's other
 * core to the bridge.
 */
import { dlopen, FFIType } from "bun:ffi";

const RENAME_EXCHANGE = 2;
const AT_FDCWD = -100;

const [a, b, hold] = process.argv.slice(2);
const holdMs = Number(hold ?? 0);
const BURST_MS = 5;
if (a === undefined || b === undefined) {
  console.error("usage: swapper.ts <path-a> <path-b> [hold-ms]");
  process.exit(2);
}
const lib = dlopen("libc.so.6", {
  renameat2: {
    args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.u32],
    returns: FFIType.i32,
  },
}).symbols;
const pa = Buffer.from(`${a}\0`);
const pb = Buffer.from(`${b}\0`);

const exchange = (): boolean => lib.renameat2(AT_FDCWD, pa, AT_FDCWD, pb, RENAME_EXCHANGE) === 0;

if (!exchange()) {
  console.error(`swapper: cannot exchange ${a} and ${b}`);
  process.exit(1);
}
process.stdout.write("ready\n");
let count = 1;
process.on("SIGTERM", () => {
  process.stdout.write(`${count}\n`);
  process.exit(0);
});
// Exchange in bursts and let the event loop see SIGTERM between them.
const burst = (): void => {
  if (holdMs > 0) {
    const end = performance.now() + BURST_MS;
    while (performance.now() < end) if (exchange()) count++;
    // an odd count of exchanges leaves the entries swapped: one more puts them back
    if (count % 2 === 1 && exchange()) count++;
    setTimeout(burst, holdMs);
    return;
  }
  for (let i = 0; i < 2000; i++) if (exchange()) count++;
  setImmediate(burst);
};
burst();
