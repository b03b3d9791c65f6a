import { expect, test } from "bun:test";
import { sideBySide } from "../../src/side-by-side.ts";

test("results in the items' order, never more than `width` running at once", async () => {
  let running = 0;
  let most = 0;
  const gates: (() => void)[] = [];
  const done = sideBySide([5, 4, 3, 2, 1, 0], 3, async (n) => {
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running -= 1;
    return n * 10;
  });
  // release the waiting calls newest first until all six have run
  for (let released = 0; released < 6; released++) {
    while (gates.length === 0) await Promise.resolve();
    (gates.pop() as () => void)();
    await Promise.resolve();
  }
  expect(await done).toEqual([50, 40, 30, 20, 10, 0]);
  expect(most).toBe(3);
});

test("a failure rejects the whole; an empty list resolves empty", async () => {
  expect(await sideBySide([], 4, async () => 1)).toEqual([]);
  const failing = sideBySide([1, 2, 3], 2, async (n) => {
    if (n === 2) throw new Error("two");
    return n;
  });
  await expect(failing).rejects.toThrow("two");
});
