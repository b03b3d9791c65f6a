/**
 * Line tables within a budget (SPEC §5.1, §8.2), against the compiled bridge: a server's
 * `references` naming 60 and 300 hard links of one 8 MB file (links cost no disk) reads
 * the file once — every ping within 2 s, the bridge under 300 MB, the call answered at
 * once — and one naming many distinct large files converts those within the call's byte
 * budget in path order and names the others, whose positions stay the server's: the same
 * bytes cached or cold, and from a bridge started afresh. The large files are sparse
 * (a text head, then zeros), so the disk holds almost nothing. Files of line breaks only
 * (8 Mi lines in 8 MiB) cost a table 4 bytes a line: a hover on one, and `references` into
 * four, stay under the bounds, and the budget pays for lines, not only bytes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
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
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { RawBridge, type ToolAnswer } from "../support/raw-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import {
  cleanupAfterEach,
  MIB,
  PING_BOUND_MS,
  peakRssMb,
  RSS_BOUND_MB,
  report,
} from "./bounds-harness.ts";

const { started } = cleanupAfterEach();

setDefaultTimeout(120_000);
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

/**
 * A bridge whose fake server answers `references` with `paths` and `hover` with a range on
 * `hoverLine`, UTF-16 columns; `serverKeys` go to its [[server]] table.
 */
async function bridgeAnswering(
  root: string,
  paths: string[],
  hoverLine = 0,
  serverKeys: Record<string, unknown> = {},
): Promise<RawBridge> {
  const at = { line: hoverLine, character: 0 };
  const config = writeConfig({
    bridge: { shutdown_grace_ms: 500, request_timeout_ms: 60_000 },
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [
      {
        ...fakeServer("fake", {
          capabilities: { textDocumentSync: 1, referencesProvider: true, hoverProvider: true },
          responses: {
            "textDocument/references": locationsOf(paths),
            "textDocument/hover": { contents: "dense", range: { start: at, end: at } },
          },
        }),
        ...serverKeys,
      },
    ],
  });
  const bridge = await RawBridge.start(config);
  started.add(bridge.pid);
  return bridge;
}

/** `references`, with pings back to back until it is answered: the answer and the figures. */
function referencesPinged(bridge: RawBridge) {
  return pinged(bridge, "references", { file: "a.fake", line: 1, column: 1 });
}

/** A tool call, with pings back to back until it is answered: the answer and the figures. */
async function pinged(bridge: RawBridge, tool: string, args: Record<string, unknown>) {
  let answer: ToolAnswer | undefined;
  const t0 = performance.now();
  const call = bridge.call(tool, args, 60_000).then((a) => {
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
    test(`references naming ${count} links`, async () => {
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
    });
  }
});

describe("distinct large files past the budget", () => {
  test("12 files of 8 MB: those within the budget converted in path order, the rest named; the same bytes afresh", async () => {
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
  });
});

describe("files of line breaks only: 4 bytes a line, and the budget pays for lines", () => {
  /** max_file_bytes: the most lines one file can hold */
  const DENSE = 8 * MIB;
  const MIDDLE = 4_000_000;
  const cases: [string, string, Record<string, unknown>, { line: number; column: number }][] = [
    ["LF", "\n", {}, { line: MIDDLE + 1, column: 1 }],
    ["lone CR", "\r", {}, { line: MIDDLE + 1, column: 1 }],
    // the server sees one line: a line past it is the end of the text
    [
      "lone CR, a server of LF lines",
      "\r",
      { line_terminators: ["lf"] },
      { line: DENSE + 1, column: 1 },
    ],
  ];
  for (const [label, unit, serverKeys, want] of cases) {
    test(`20. hover in the middle of 8 MiB of ${label}`, async () => {
      const root = workspaceWith();
      writeFileSync(join(root, "dense.fake"), unit.repeat(DENSE));
      const bridge = await bridgeAnswering(root, [], MIDDLE, serverKeys);
      const args = { file: "dense.fake", line: MIDDLE + 1, column: 1 };
      const { answer, ms, p } = await pinged(bridge, "hover", args);
      report(`hover on 8 MiB of ${label}`, p, bridge.pid, `; call ${ms.toFixed(0)} ms`);
      expect(answer.isError).toBe(false);
      // converted with the document's own table, whatever the budget
      expect(answer.structured.range).toEqual({ ...want, end_line: want.line, end_column: 1 });
      expect(peakRssMb(bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    });
  }

  /** `references` into four files of `text` (d0…d3.fake), pinged through and reported. */
  async function referencesInto(text: string, label: string) {
    const root = workspaceWith();
    const files = ["d0", "d1", "d2", "d3"].map((n) => join(root, `${n}.fake`));
    for (const f of files) writeFileSync(f, text);
    const bridge = await bridgeAnswering(root, files);
    const { answer, ms, p } = await referencesPinged(bridge);
    report(`references into 4 files of ${label}`, p, bridge.pid, `; call ${ms.toFixed(0)} ms`);
    expect(answer.isError).toBe(false);
    expect(peakRssMb(bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    return { answer, names: files.map((f) => f.slice(root.length + 1)) };
  }

  test("20b. references into 4 files of 8 MiB of LF: each read and counted, none converted", async () => {
    const { answer, names } = await referencesInto("\n".repeat(DENSE), "8 MiB of LF");
    // 8 MiB and 32 MiB of lines each: past the call's 32 MiB, the server's positions
    expect(answer.structured.unconverted).toEqual(names);
    for (const l of answer.structured.locations as Loc[]) {
      expect([l.column, l.end_column]).toEqual([5, 11]);
    }
  });

  test("20c. references into 4 files of 2 MiB of LF: 8 MiB of bytes, 10 MiB of table each, 3 converted", async () => {
    // the head line makes every file need its table: non-ASCII
    const { answer } = await referencesInto(HEAD + "\n".repeat(2 * MIB), "2 MiB of LF");
    expect(answer.structured.unconverted).toEqual(["d3.fake"]);
    const cols = (answer.structured.locations as Loc[]).map((l) => [l.file, l.column]);
    expect(cols).toEqual([
      ["d0.fake", 4],
      ["d1.fake", 4],
      ["d2.fake", 4],
      ["d3.fake", 5],
    ]);
  });
});
