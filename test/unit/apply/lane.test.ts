import { describe, expect, test } from "bun:test";
import { ApplyLane } from "../../../src/apply/lane.ts";
import { BridgeError } from "../../../src/errors.ts";

describe("ApplyLane (SPEC §7.4, §9.2)", () => {
  test("applies run one at a time, in the order they came, with turns between files", async () => {
    const lane = new ApplyLane();
    const log: string[] = [];
    const work = (name: string) => async () => {
      for (let file = 0; file < 3; file++) {
        log.push(`${name}${file}`);
        await lane.between();
      }
      return name;
    };
    const both = await Promise.all([lane.run(work("a")), lane.run(work("b"))]);
    expect(both).toEqual(["a", "b"]);
    expect(log).toEqual(["a0", "a1", "a2", "b0", "b1", "b2"]);
  });

  test("a turn reports the bytes a file was read into, and collects", async () => {
    const took: number[] = [];
    let collected = 0;
    const lane = new ApplyLane(
      (bytes) => took.push(bytes),
      () => {
        collected += 1;
      },
    );
    await lane.between(1024);
    await lane.between();
    expect(took).toEqual([1024]);
    expect(collected).toBe(2);
  });

  test("once closing, an apply stops at its next turn and a waiting one never starts", async () => {
    const lane = new ApplyLane();
    let reached = 0;
    let started = (): void => {};
    const inWork = new Promise<void>((resolve) => (started = resolve));
    const running = lane.run(async () => {
      reached = 1;
      started();
      await lane.between();
      reached = 2;
      await lane.between();
      reached = 3;
    });
    const waiting = lane.run(async () => "started");
    await inWork;
    const closed = lane.close(Date.now() + 5000);
    const errors = await Promise.all([running, waiting].map((p) => p.catch((e: unknown) => e)));
    for (const err of errors) {
      expect(err).toBeInstanceOf(BridgeError);
      expect((err as BridgeError).code).toBe("Cancelled");
    }
    expect(reached).toBe(1);
    await closed;
  });

  test("close resolves by its deadline even while an apply runs on", async () => {
    const lane = new ApplyLane();
    let release = (): void => {};
    let started = (): void => {};
    const inWork = new Promise<void>((resolve) => (started = resolve));
    const running = lane.run(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          started();
        }),
    );
    await inWork;
    const at = Date.now();
    await lane.close(Date.now() + 50);
    expect(Date.now() - at).toBeLessThan(2000);
    release();
    await running;
  });
});
