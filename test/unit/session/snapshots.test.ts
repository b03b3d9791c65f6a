/** The diagnostics snapshots a bridge keeps (SPEC §6.1): the last 32, least recently used out. */
import { expect, test } from "bun:test";
import { MAX_SNAPSHOTS, type Snapshot, SnapshotStore } from "../../../src/session/snapshots.ts";

const empty: Snapshot = { diagnostics: [] };

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
