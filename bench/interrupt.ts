/**
 * A benchmark stopped by SIGINT or SIGTERM (Ctrl-C, `timeout`) runs none of its `finally`
 * blocks, so what it started would outlive it: cclsp, for one, does not exit when its
 * stdin closes, and keeps its language servers running. Each client registers its process
 * here; on the signal every registered process and its descendants are SIGKILLed by pid
 * (found by parent chain, start times checked), each client's extra cleanup runs, the
 * benchmark's temporary directories are removed, and it exits with the signal's status.
 */
import { rmSync } from "node:fs";
import { descendantsOf } from "../test/support/processes.ts";
import { Watched } from "./procfs.ts";

interface Registered {
  pid: number;
  /** after the kill, e.g. removing the server's private TMPDIR */
  after?: () => void;
}

const registered = new Set<Registered>();
const dirs = new Set<string>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
}

function onSignal(signal: "SIGINT" | "SIGTERM"): void {
  const trees = [...registered].map((r) => ({
    r,
    procs: [r.pid, ...descendantsOf(r.pid)].map((pid) => new Watched("interrupted", pid)),
  }));
  for (const { procs } of trees) for (const p of procs) p.kill();
  for (const { r } of trees) {
    try {
      r.after?.();
    } catch {
      // best effort: the benchmark is ending
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  process.exit(signal === "SIGINT" ? 130 : 143);
}

/** Kill `pid`'s tree if the benchmark is interrupted; the returned function unregisters. */
export function killOnInterrupt(pid: number, after?: () => void): () => void {
  install();
  const entry: Registered = { pid, ...(after === undefined ? {} : { after }) };
  registered.add(entry);
  return () => registered.delete(entry);
}

/** Remove `dir` if the benchmark is interrupted (until `forgetDir`). */
export function removeOnInterrupt(dir: string): void {
  install();
  dirs.add(dir);
}

/** `dir` was removed in the ordinary way: nothing to do for it on a signal. */
export function forgetDir(dir: string): void {
  dirs.delete(dir);
}
