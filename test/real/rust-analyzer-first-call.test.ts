/**
 * rust-analyzer's first call after start (SPEC §4.5, ContentModified): its own
 * `cargo metadata` writes Cargo.lock while it loads, the bridge passes that change back,
 * and rust-analyzer reloads — answering what was pending with ContentModified. Ten fresh
 * sessions, two at a time, on a crate without a Cargo.lock, the first call after readiness
 * taking turns (rename_preview, hover, definition): each answer is the right one, within
 * 10 s of readiness, and none is "content modified".
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { anyEditSet, locs, ok, range, realSuite, startRealBridge } from "../support/real-bridge.ts";
import { findRustAnalyzer } from "../support/real-servers.ts";
import { rounds } from "../support/rounds.ts";

const ra = await findRustAnalyzer();
const suite = realSuite("rust-analyzer", ra);

const at = { file: "src/main.rs", line: 6, symbol: "total_area" };
const edit = (l: number, c: number, e: number) => ({ ...range(l, c, l, e), new_text: "sum_areas" });

/** Each first call and what it must answer. */
const FIRST_CALLS: { tool: string; args: Record<string, unknown>; check(r: unknown): void }[] = [
  {
    tool: "rename_preview",
    args: { ...at, new_name: "sum_areas" },
    check: (r) =>
      expect(r).toEqual({
        applied: false,
        new_name: "sum_areas",
        edit_set: anyEditSet(),
        changes: [
          { file: "src/main.rs", edits: [edit(1, 33, 43), edit(6, 39, 49)] },
          { file: "src/report.rs", edits: [edit(4, 8, 18)] },
        ],
      }),
  },
  {
    tool: "hover",
    args: at,
    check: (r) =>
      expect((r as { text: string }).text).toStartWith(
        "theodolite_fixture::report\n\npub fn total_area(rects: &[Rect]) -> u32",
      ),
  },
  {
    tool: "definition",
    args: at,
    check: (r) => expect(locs(r as Record<string, unknown>)).toEqual(["src/report.rs 4:8–4:18"]),
  },
];

/** fresh sessions, two at a time (even) */
const SESSIONS = rounds(6, 20);

test.skipIf(!ra)(
  `${SESSIONS} fresh sessions without a Cargo.lock: the first call is right, within 10 s of readiness`,
  async () => {
    const seen: string[] = [];
    const session = async (i: number) => {
      const root = suite.fixture("rust");
      rmSync(join(root, "Cargo.lock"), { force: true });
      const bridge = await startRealBridge(root, suite.config());
      try {
        await ok(bridge, "session_status", { start: true });
        const ready = performance.now();
        const call = FIRST_CALLS[i % FIRST_CALLS.length] as (typeof FIRST_CALLS)[number];
        const r = await bridge.call(call.tool, call.args);
        const ms = performance.now() - ready;
        console.log(`first call ${i} (${call.tool}): ${ms.toFixed(0)} ms after readiness`);
        seen[i] =
          `${i} ${call.tool}: ${r.isError ? r.text : "ok"}, ${ms < 10_000 ? "<" : "≥"} 10 s`;
        if (!r.isError) call.check(r.structured);
      } finally {
        await bridge.close();
      }
    };
    // two at a time: each load contends with another's, as on a loaded machine
    for (let i = 0; i < SESSIONS; i += 2) await Promise.all([session(i), session(i + 1)]);
    expect(seen).toEqual(
      Array.from({ length: SESSIONS }, (_, i) => {
        const tool = FIRST_CALLS[i % FIRST_CALLS.length]?.tool;
        return `${i} ${tool}: ok, < 10 s`;
      }),
    );
  },
  900_000,
);
