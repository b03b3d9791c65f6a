/**
 * Turns handed out one at a time (src/workspace/turns.ts, SPEC §8.2): callers that ask
 * together each get a turn of the event loop to themselves, and what else the loop has to
 * do — a timer here, the client's input in the bridge — runs between their turns, where
 * immediates queued together would have run back to back.
 */
import { expect, test } from "bun:test";
import { Turns } from "../../../src/workspace/turns.ts";

/** Work that holds the thread for `ms`, as a large file's table does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

/** A timer due in 1 ms that writes "timer" into `seen` when it runs. */
function dueTimer(seen: string[]): Promise<void> {
  return new Promise<void>((resolve) =>
    setTimeout(() => {
      seen.push("timer");
      resolve();
    }, 1),
  );
}

test("callers asking together get a turn each, in order, and a due timer runs between", async () => {
  const turns = new Turns();
  const seen: string[] = [];
  const due = dueTimer(seen);
  const callers = ["a", "b", "c"].map(async (name) => {
    await turns.next();
    seen.push(name);
    busy(20);
  });
  await Promise.all([...callers, due]);
  expect(seen[0]).toBe("a");
  expect(seen.filter((s) => s !== "timer")).toEqual(["a", "b", "c"]);
  // the timer fell due during a's turn: it ran before c's
  expect(seen.indexOf("timer")).toBeLessThan(seen.indexOf("c"));
});

test("immediates queued together run back to back: what the chain is for", async () => {
  const seen: string[] = [];
  const due = dueTimer(seen);
  const callers = ["a", "b", "c"].map(
    (name) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          seen.push(name);
          busy(20);
          resolve();
        }),
      ),
  );
  await Promise.all([...callers, due]);
  expect(seen).toEqual(["a", "b", "c", "timer"]);
});
