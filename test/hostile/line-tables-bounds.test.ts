/**
 * Line tables within a budget (SPEC §5.1, §8.2), against the compiled bridge: a server's
 * `references` naming 60 and 300 hard links of one 8 MB file (links cost no disk) reads
 * the file once — every ping within 2 s, the bridge under 300 MB, the call answered at
 * once — and one naming many distinct large files converts those within the call's byte
 * budget in path order and names the others, whose positions stay the server's: the same
 * bytes cached or cold, and from a bridge started afresh. The large files are sparse
 * (a text head, then zeros), so the disk holds almost nothing.
 */
import { describe, expect, test } from "bun:test";
import {
  closeSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { fakeServer, tempDir, writeConfig } from "../support/bridge.ts";
import { RawBridge, type ToolAnswer } from "../support/raw-bridge.ts";
import {
  cleanupAfterEach,
  PING_BOUND_MS,
  peakRssMb,
  RSS_BOUND_MB,
  report,
} from "./bounds-harness.ts";

const { started } = cleanupAfterEach();

const TEST_MS = 120_000;
const FILE_BYTES = 8_000_000;
/** The big files' first line: non-ASCII, so a table must keep the text to convert */
const HEAD = "é😀 target\n";

/** A sparse file of FILE_BYTES: HEAD, then zeros the disk does not hold. */
function sparseFile(path: string): void {
  const fd = openSync(path, "w");
  try {
    writeSync(fd, HEAD);
    ftruncateSync(fd, FILE_BYTES);
  } finally {
    closeSync(fd);
  }
}

/** `target` on the head line: UTF-16 characters 4..10 (the server's), code points 3..9. */
const RANGE = { start: { line: 0, character: 4 }, end: { line: 0, character: 10 } };

function locationsOf(paths: string[]) {
  return paths.map((p) => ({ uri: pathToFileURL(p).href, range: RANGE }));
}

/** A bridge whose fake server answers `references` with `paths`, UTF-16 columns. */
async function bridgeAnswering(root: string, paths: string[]): Promise<RawBridge> {
  const config = writeConfig({
    bridge: { shutdown_grace_ms: 500, request_timeout_ms: 60_000 },
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [
      fakeServer("fake", {
        capabilities: { textDocumentSync: 1, referencesProvider: true },
        responses: { "textDocument/references": locationsOf(paths) },
      }),
    ],
  });
  const bridge = await RawBridge.start(config);
  started.add(bridge.pid);
  return bridge;
}

/** `references`, with pings back to back until it is answered: the answer and the figures. */
async function referencesPinged(bridge: RawBridge) {
  let answer: ToolAnswer | undefined;
  const t0 = performance.now();
  const call = bridge
    .call("references", { file: "a.fake", line: 1, column: 1 }, 60_000)
    .then((a) => {
      answer = a;
    });
  const p = { pings: 0, during: 0, maxMs: 0 };
  while (answer === undefined) {
    const ms = await bridge.ping(PING_BOUND_MS);
    p.pings += 1;
    if (answer === undefined) p.during += 1;
    p.maxMs = Math.max(p.maxMs, ms);
  }
  await call;
  return { answer: answer as ToolAnswer, ms: performance.now() - t0, p };
}

interface Loc {
  file: string;
  column: number;
  end_column: number;
}

/** A workspace whose `a.fake` (the file the call names) is small. */
function workspaceWith(): string {
  const root = tempDir("theodolite-line-bounds-");
  writeFileSync(join(root, "a.fake"), "alpha\n");
  return root;
}

describe("hard links of one 8 MB file: one read, one table", () => {
  for (const count of [60, 300]) {
    test(
      `references naming ${count} links`,
      async () => {
        const root = workspaceWith();
        sparseFile(join(root, "big.fake"));
        mkdirSync(join(root, "links"));
        const links = Array.from({ length: count }, (_, i) => {
          const link = join(root, "links", `l${String(i).padStart(3, "0")}.fake`);
          linkSync(join(root, "big.fake"), link);
          return link;
        });
        const bridge = await bridgeAnswering(root, links);
        const { answer, ms, p } = await referencesPinged(bridge);
        report(
          `references of ${count} hard links of an 8 MB file`,
          p,
          bridge.pid,
          `; call ${ms.toFixed(0)} ms`,
        );
        expect(answer.isError).toBe(false);
        const locs = answer.structured.locations as Loc[];
        expect(locs).toHaveLength(count);
        // converted: code points, not the server's UTF-16 characters
        for (const l of locs) expect([l.column, l.end_column]).toEqual([4, 10]);
        expect(answer.structured.unconverted).toBeUndefined();
        expect(peakRssMb(bridge.pid)).toBeLessThan(RSS_BOUND_MB);
        expect(ms).toBeLessThan(5000);
      },
      TEST_MS,
    );
  }
});

describe("distinct large files past the budget", () => {
  test(
    "12 files of 8 MB: those within the budget converted in path order, the rest named; the same bytes afresh",
    async () => {
      const root = workspaceWith();
      const files = Array.from({ length: 12 }, (_, i) => {
        const path = join(root, `big${String(i).padStart(2, "0")}.fake`);
        sparseFile(path);
        return path;
      });
      const bridge = await bridgeAnswering(root, [...files].reverse());
      const first = await referencesPinged(bridge);
      report(
        "references of 12 distinct 8 MB files",
        first.p,
        bridge.pid,
        `; call ${first.ms.toFixed(0)} ms`,
      );
      expect(first.answer.isError).toBe(false);
      expect(peakRssMb(bridge.pid)).toBeLessThan(RSS_BOUND_MB);
      const locs = first.answer.structured.locations as Loc[];
      const unconverted = first.answer.structured.unconverted as string[];
      // four files of 8,000,000 bytes fill the call's 32 MiB
      const converted = ["big00.fake", "big01.fake", "big02.fake", "big03.fake"];
      expect(unconverted).toEqual(locs.map((l) => l.file).filter((f) => !converted.includes(f)));
      expect(unconverted).toHaveLength(8);
      for (const l of locs) {
        const want = converted.includes(l.file) ? [4, 10] : [5, 11];
        expect({ file: l.file, at: [l.column, l.end_column] }).toEqual({ file: l.file, at: want });
      }
      // cached now: the same answer; and from a bridge started afresh
      const again = await referencesPinged(bridge);
      expect(again.answer.structured).toEqual(first.answer.structured);
      const fresh = await bridgeAnswering(root, files);
      const cold = await referencesPinged(fresh);
      expect(cold.answer.structured).toEqual(first.answer.structured);
    },
    TEST_MS,
  );
});
