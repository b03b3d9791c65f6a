/**
 * The diagnostics snapshots a bridge keeps (SPEC §6.1, §8.2): the last 32, least recently
 * used out, and no more than MAX_SNAPSHOT_BYTES of them besides the newest.
 */
import { expect, test } from "bun:test";
import {
  MAX_SNAPSHOT_BYTES,
  MAX_SNAPSHOTS,
  type Snapshot,
  SnapshotStore,
  snapshotWeight,
} from "../../../src/session/snapshots.ts";
import { range } from "../../support/normalize-context.ts";

const empty: Snapshot = { items: [], texts: Buffer.alloc(0) };

test("keeps the last 32; a lookup keeps a snapshot alive", () => {
  expect(MAX_SNAPSHOTS).toBe(32);
  const store = new SnapshotStore();
  for (let i = 0; i < 32; i++) store.put(`s${i}`, empty);
  expect(store.get("s0")).toBe(empty); // used: now the most recent
  store.put("s32", empty);
  expect(store.size).toBe(32);
  expect(store.get("s1")).toBeUndefined(); // the least recently used went
  expect(store.get("s0")).toBe(empty);
  expect(store.get("s32")).toBe(empty);
  expect(store.get("unknown")).toBeUndefined();
});

test("bounded in bytes: large snapshots push the least recent out; the newest stays", () => {
  const item = {
    file: "a.ts",
    ...range(1, 1, 1, 2),
    severity: "error" as const,
    message: "m".repeat(1000),
    channels: ["push" as const],
  };
  const keyed = (n: number): Snapshot => ({
    items: Array(n).fill(item),
    texts: Buffer.alloc(32 * n),
  });
  const big = keyed(10_000);
  const weight = snapshotWeight(big);
  expect(weight).toBeGreaterThan(20_000_000);
  const store = new SnapshotStore();
  for (let i = 0; i < 8; i++) store.put(`b${i}`, big);
  const kept = Math.floor(MAX_SNAPSHOT_BYTES / weight) + 1;
  expect(store.size).toBe(kept);
  expect(store.get("b7")).toBe(big);
  expect(store.get(`b${7 - kept}`)).toBeUndefined();
  // one larger than the whole bound is still kept, the others within the bound beside it
  const huge = keyed(40_000);
  expect(snapshotWeight(huge)).toBeGreaterThan(MAX_SNAPSHOT_BYTES);
  store.put("huge", huge);
  expect(store.get("huge")).toBe(huge);
  expect(store.size).toBe(kept);
});
