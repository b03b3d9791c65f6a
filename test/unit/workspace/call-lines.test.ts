/**
 * One call's line tables (SPEC §5.1, §8.2): a file is read once however many links name
 * it, and the files an answer names are counted against the call's byte budget in path
 * order, cached, open or read now alike — so which files are converted depends on the disk
 * alone, never on what an earlier call left in the cache. A table costs its text and 4
 * bytes a line: `cost` below.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { linkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AsciiLines } from "../../../src/text/line-columns.ts";
import { LineIndex } from "../../../src/text/line-index.ts";
import { LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import {
  CallLines,
  NONE_OPEN,
  type OpenLines,
  PENDING,
} from "../../../src/workspace/call-lines.ts";
import { FileVouches } from "../../../src/workspace/file-vouches.ts";
import { LineTables, RACY_MARGIN_MS } from "../../../src/workspace/line-tables.ts";
import { InotifyHub } from "../../../src/workspace/watch-hub.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { workspaceAt } from "../../support/workspace.ts";

let dir: string;
/** with watches that vouch for a path looked at twice: later calls reuse its table unlooked */
let vouched = false;
const opened: FileVouches[] = [];
/** each cache's vouches, whose events a call takes (workspace.ts callLines) */
const syncs = new WeakMap<LineTables, () => void>();
beforeEach(() => {
  dir = tempDir("theodolite-call-lines-");
});
afterEach(() => {
  // the last owner's close ends the hub's inotify instance
  for (const vouches of opened.splice(0)) vouches.close();
  removeTempDirs();
});

/** A table cache over `dir` whose clock runs ahead (fresh files count as settled), counting reads. */
function cache(): { tables: LineTables; reads: string[] } {
  const ws = workspaceAt(dir);
  const reads: string[] = [];
  let vouches: FileVouches | undefined;
  if (vouched) {
    vouches = new FileVouches(ws.rootReal, new InotifyHub());
    opened.push(vouches);
  }
  const tables = new LineTables(
    {
      identify: (abs) => ws.tryIdentify(abs),
      read: (abs) => {
        reads.push(abs.slice(dir.length + 1));
        return ws.tryRead(abs);
      },
      ...(vouches ? { vouches } : {}),
    },
    undefined,
    () => Date.now() + 2 * RACY_MARGIN_MS,
  );
  if (vouches) syncs.set(tables, () => vouches.sync());
  return { tables, reads };
}

function call(
  tables: LineTables,
  budget: number,
  open: Record<string, OpenLines> = {},
  own?: string,
) {
  const files = { paths: new Map(Object.entries(open)), lines: (abs: string) => open[abs] };
  return new CallLines(tables, LSP_LINES, budget, files, own, syncs.get(tables));
}

/** What a call pays for an ASCII text's table: its bytes and 4 bytes a line. */
const cost = (text: string) => text.length + 4 * text.split(/\r\n|\r|\n/).length;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Every case looked at (one lstat a path), and vouched for (no look: the kept table reused). */
function cases(): void {
  test("sixty links of one file: one read, one table, counted once against the budget", async () => {
    const first = file("big.c", "x\n".repeat(500));
    const links = [first];
    for (let i = 0; i < 59; i++) {
      const link = join(dir, `link${String(i).padStart(2, "0")}.c`);
      linkSync(first, link);
      links.push(link);
    }
    const { tables, reads } = cache();
    // a budget of one table: sixty would be far past it
    const lines = call(tables, cost("x\n".repeat(500)));
    await lines.load(links);
    expect(reads).toEqual(["big.c"]);
    const table = lines.get(first);
    expect(table).toBeInstanceOf(AsciiLines);
    for (const link of links) expect(lines.get(link)).toBe(table);
    expect(tables.stats().entries).toBe(1);
    // a later call: one lstat per path (none once vouched for), no read, counted once
    const later = call(tables, cost("x\n".repeat(500)));
    await later.load(links);
    expect(reads).toEqual(["big.c"]);
    for (const link of links) expect(later.get(link)).toBe(table);
    // … and so without canonical order, the path the table was used through first or last
    for (const order of [links, links.toReversed()]) {
      const peeking = call(tables, cost("x\n".repeat(500)));
      for (const link of order) expect(peeking.peek(link)).toBe(table);
    }
  });

  test("a file decided through one path is not paid for again through another", async () => {
    const text = "x\n".repeat(500);
    const first = file("big.c", text);
    const link = join(dir, "link.c");
    linkSync(first, link);
    const other = file("other.c", text);
    const { tables } = cache();
    // looked at twice (vouched for from then on, where there are vouches), tables kept
    for (let i = 0; i < 2; i++) await call(tables, 10 * cost(text)).load([first, other]);
    // the link, never looked at, takes the map path; its file met again through `first`
    const lines = call(tables, 2 * cost(text));
    expect(lines.peek(link)).toBeInstanceOf(AsciiLines);
    expect(lines.peek(first)).toBe(lines.peek(link));
    expect(lines.peek(other)).toBeInstanceOf(AsciiLines);
  });

  test("past the budget, in path order: the same files whether cached or read", async () => {
    const names = ["d.c", "a.c", "c.c", "b.c"];
    const paths = names.map((n) => file(n, `${n}\n`.repeat(25))); // 100 bytes, 26 lines each
    expect(cost("a.c\n".repeat(25))).toBe(204);
    const fresh = cache();
    const cold = call(fresh.tables, 450);
    await cold.load(paths);
    const verdict = (c: CallLines) => names.map((n) => [n, c.get(join(dir, n)) === "budget"]);
    expect(verdict(cold)).toEqual([
      ["d.c", true],
      ["a.c", false],
      ["c.c", true],
      ["b.c", false],
    ]);
    expect(fresh.reads).toEqual(["a.c", "b.c"]);
    // warm the cache with every file, then the same call again: the same verdicts
    await call(fresh.tables, 10_000).load(paths);
    const warm = call(fresh.tables, 450);
    await warm.load([...paths].reverse());
    expect(verdict(warm)).toEqual(verdict(cold));
  });

  test("an open document counts like the file and serves its own table", async () => {
    const a = file("a.ts", "é\n");
    const b = file("b.ts", "b\n".repeat(10));
    const { tables, reads } = cache();
    const index = new LineIndex("é\n");
    const open = { [a]: { index, text: "é\n", identity: tables.identity(a) ?? null } };
    const lines = call(tables, 12, open);
    await lines.load([b, a]);
    expect(lines.get(a)).toBe(index);
    // a.ts (3 bytes, 2 lines: 11) first in path order; b.ts (20 bytes) is past the 12 of the budget
    expect(lines.get(b)).toBe("budget");
    expect(reads).toEqual([]);
  });

  test("a file outside the root or gone is not counted and has no table", async () => {
    const { tables } = cache();
    const lines = call(tables, 1 << 20);
    await lines.load(["/etc/hostname", join(dir, "missing.c")]);
    expect(lines.get("/etc/hostname")).toBeUndefined();
    expect(lines.get(join(dir, "missing.c"))).toBeUndefined();
  });

  test("one table per line model: a lone CR splits LSP's lines, not LF's", async () => {
    const path = file("cr.c", "a\rb\n");
    const { tables } = cache();
    const lsp = call(tables, 1 << 20);
    const lf = new CallLines(tables, lineModel(["lf"]), 1 << 20, NONE_OPEN);
    await lsp.load([path]);
    await lf.load([path]);
    expect(lsp.get(path)).toBeInstanceOf(AsciiLines);
    const own = lf.get(path) as LineIndex;
    expect(own).toBeInstanceOf(LineIndex);
    expect(own.sameLines).toBe(false);
    expect(tables.stats().entries).toBe(2);
  });

  test("peek reads nothing: an uncached file, or one past the budget, is pending until load", async () => {
    const a = file("a.c", "a\n".repeat(50)); // 100 bytes, 51 lines: 304
    const b = file("b.c", "b\n".repeat(50));
    const { tables, reads } = cache();
    const first = call(tables, 350);
    expect(first.peek(a)).toBe(PENDING);
    expect(reads).toEqual([]);
    await first.load([b, a]);
    expect(reads).toEqual(["a.c"]);
    expect(first.get(b)).toBe("budget");
    // cached now: a later call peeks a.c at once, and b.c (uncached) stays pending
    const second = call(tables, 350);
    expect(second.peek(a)).toBeInstanceOf(AsciiLines);
    expect(second.peek(b)).toBe(PENDING);
    // both cached: within the budget in any order, past it only in canonical order
    await call(tables, 1000).load([a, b]);
    const third = call(tables, 350);
    expect(third.peek(b)).toBeInstanceOf(AsciiLines);
    expect(third.peek(a)).toBe(PENDING);
    await third.load([b, a]);
    expect([third.get(a), third.get(b)].map((t) => t === "budget")).toEqual([false, true]);
  });

  test("a file of empty lines costs its lines: read and counted, no table made, its bytes paid", async () => {
    const dense = file("a.c", "\n".repeat(1000)); // 1000 bytes, 1001 lines: 5004
    const small = file("b.c", "b\n".repeat(50)); // 304
    const { tables, reads } = cache();
    const lines = call(tables, 1400);
    await lines.load([small, dense]);
    expect(lines.get(dense)).toBe("budget");
    expect(reads).toEqual(["a.c", "b.c"]);
    expect(tables.stats().entries).toBe(1);
    // the read paid 1000 of 1400: b.c fits what is left
    expect(lines.get(small)).toBeInstanceOf(AsciiLines);
    const tight = call(tables, 1303);
    await tight.load([small, dense]);
    expect(tight.get(small)).toBe("budget");
  });

  test("the call's own document converts with its table whatever it costs, its links too", async () => {
    const text = "\n".repeat(1000);
    const own = file("own.c", text);
    const link = join(dir, "a-link.c");
    linkSync(own, link);
    const { tables, reads } = cache();
    const index = new LineIndex(text);
    const open = { [own]: { index, text, identity: tables.identity(own) ?? null } };
    const lines = call(tables, 100, open, own);
    await lines.load([link, own]);
    expect(lines.get(own)).toBe(index);
    expect(lines.get(link)).toBe(index);
    expect(reads).toEqual([]);
    // the same document open, not the call's own: past the budget
    const other = call(tables, 100, open);
    await other.load([own]);
    expect(other.get(own)).toBe("budget");
    // the link read as a plain file, then vouched for: still the own document's table
    for (let i = 0; i < 3; i++) await call(tables, 1 << 20).load([link]);
    expect(call(tables, 1 << 20, open, own).peek(link)).toBe(index);
  });

  test("present: the files whose lines the call had from disk, as the last look found them", async () => {
    const a = file("a.ts", "one\n");
    const b = file("b.ts", "two\n");
    const gone = join(dir, "gone.ts");
    const open = join(dir, "open.ts");
    const { tables } = cache();
    const doc: OpenLines = { index: new LineIndex("x\n"), text: "x\n", identity: null };
    const lines = call(tables, 1 << 20, { [open]: doc });
    for (const p of [a, b, gone, open]) lines.get(p);
    expect([a, b, gone, open].map((p) => lines.present(p))).toEqual([true, true, false, false]);
    // looked at again, then (vouched for) not looked at: present all the same
    for (let i = 0; i < 2; i++) {
      const again = call(tables, 1 << 20, { [open]: doc });
      for (const p of [a, b, gone, open]) again.get(p);
      expect([a, b, gone, open].map((p) => again.present(p))).toEqual([true, true, false, false]);
    }
    // the files taken again in canonical order: what that look finds, not the first one
    rmSync(b);
    await lines.load([a, b]);
    expect([a, b].map((p) => lines.present(p))).toEqual([true, false]);
  });
}

describe("paths looked at", () => {
  beforeEach(() => {
    vouched = false;
  });
  cases();
});

describe("paths vouched for", () => {
  beforeEach(() => {
    vouched = true;
  });
  cases();
});
