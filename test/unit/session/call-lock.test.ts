/** Calls side by side, a preview alone (SPEC §6.2): the order the lock lets them run in. */
import { expect, test } from "bun:test";
import { CallLock } from "../../../src/session/call-lock.ts";

/** A promise and its resolver: a call that ends when the test says so. */
function gate(): { done: Promise<void>; open: () => void } {
  let open = () => {};
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { done, open };
}

test("shared calls run together; an exclusive one waits for them, and they for it", async () => {
  const lock = new CallLock();
  const log: string[] = [];
  const first = gate();
  const a = lock.shared(async () => {
    log.push("a in");
    await first.done;
    log.push("a out");
  });
  const b = lock.shared(async () => {
    log.push("b in");
  });
  const alone = gate();
  const x = lock.exclusive(async () => {
    log.push("x in");
    await alone.done;
    log.push("x out");
  });
  // a shared call made while the exclusive one only waits is not held (no deadlock)
  const c = lock.shared(async () => {
    log.push("c in");
  });
  await b;
  await c;
  expect(log).toEqual(["a in", "b in", "c in"]);
  expect(lock.status()).toEqual({});
  first.open();
  await a;
  // x runs now; a call arriving meanwhile waits, and session_status counts it
  await Promise.resolve();
  const d = lock.shared(async () => {
    log.push("d in");
  });
  expect(lock.status()).toEqual({ previewing: { waiting: 1 } });
  alone.open();
  await x;
  await d;
  expect(log).toEqual(["a in", "b in", "c in", "a out", "x in", "x out", "d in"]);
  expect(lock.status()).toEqual({});
});

test("two exclusive calls never overlap; a failure releases the lock", async () => {
  const lock = new CallLock();
  let inside = 0;
  let most = 0;
  const one = async () => {
    inside += 1;
    most = Math.max(most, inside);
    await Promise.resolve();
    inside -= 1;
  };
  const failing = lock.exclusive(async () => {
    await one();
    throw new Error("boom");
  });
  await Promise.all([lock.exclusive(one), failing.catch(() => {}), lock.exclusive(one)]);
  expect(most).toBe(1);
  expect(await lock.shared(async () => "after")).toBe("after");
});
