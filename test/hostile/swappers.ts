/**
 * The swapper (swapper.ts) run as a child process for the race tests: it exchanges two paths
 * atomically in a loop until stopped, and says how many swaps it made.
 */
import { type Subprocess, spawn } from "bun";
import { within } from "../support/wait.ts";

/** A running swapper (swapper.ts), ended by its pid. */
export interface Swapper {
  stop(): Promise<number>;
}

const swappers = new Set<Subprocess>();

/**
 * Start exchanging `a` and `b` atomically in a loop; resolves once it runs. With `holdMs`,
 * each burst of exchanges is followed by that long with both entries in place.
 */
export async function startSwapper(a: string, b: string, holdMs = 0): Promise<Swapper> {
  const proc = spawn([process.execPath, `${import.meta.dir}/swapper.ts`, a, b, String(holdMs)], {
    stdout: "pipe",
    stderr: "pipe",
  });
  swappers.add(proc);
  const reader = proc.stdout.getReader();
  const first = await within(reader.read(), 10_000, "the swapper to start");
  const text = new TextDecoder().decode(first.value ?? new Uint8Array());
  if (!text.startsWith("ready")) {
    proc.kill("SIGKILL");
    throw new Error(`swapper did not start: ${text} ${await new Response(proc.stderr).text()}`);
  }
  return {
    async stop() {
      swappers.delete(proc);
      proc.kill("SIGTERM");
      let out = "";
      for (;;) {
        const { value, done } = await within(reader.read(), 10_000, "the swapper to stop");
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      await proc.exited;
      return Number.parseInt(out.trim(), 10);
    },
  };
}

export function killSwappers(): void {
  for (const proc of swappers) proc.kill("SIGKILL");
  swappers.clear();
}
