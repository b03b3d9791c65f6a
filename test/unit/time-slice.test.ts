/**
 * Long loops in slices (src/time-slice.ts, SPEC §8.2): on a workspace's chained turns,
 * loops running at once take one slice per turn of the event loop, and what else the loop
 * has to do (a timer here, the client's input in the bridge) runs between their slices.
 */
import { expect, test } from "bun:test";
import { SLICE_MS, TimeSlices } from "../../src/time-slice.ts";
import { Turns } from "../../src/workspace/turns.ts";

/** One step that holds the thread a sixteenth of a slice: a slice is sixteen steps or so. */
function step(): void {
  const end = performance.now() + SLICE_MS / 16;
  while (performance.now() < end) {}
}

test("loops at once on chained turns: a due timer runs after one slice, not after all", async () => {
  const turns = new Turns();
  const seen: string[] = [];
  const loops = ["a", "b", "c"].map(async (name) => {
    const slices = new TimeSlices({ collect: () => {}, turn: () => turns.next() });
    await slices.turn();
    await slices.each(32, () => {
      step();
      seen.push(name);
    });
  });
  const timer = new Promise<void>((resolve) =>
    setTimeout(() => {
      seen.push("timer");
      resolve();
    }, 1),
  );
  await Promise.all([...loops, timer]);
  // the timer fell due during the first slice: it ran before the third loop began
  expect(seen.indexOf("timer")).toBeLessThan(seen.indexOf("c"));
  expect(seen.filter((s) => s !== "timer")).toHaveLength(3 * 32);
});
