/**
 * One call's line tables (SPEC §5.1, §8.2): a file is read once however many links name
 * it, and the files an answer names are counted against the call's byte budget in path
 * order, cached, open or read now alike — so which files are converted depends on the disk
 * alone, never on what an earlier call left in the cache.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { linkSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AsciiLines } from "../../../src/text/line-columns.ts";
import { LineIndex } from "../../../src/text/line-index.ts";
import { LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import { CallLines, type OpenLines, PENDING } from "../../../src/workspace/call-lines.ts";
import { LineTables, RACY_MARGIN_MS } from "../../../src/workspace/line-tables.ts";
import { workspaceAt } from "../../support/workspace.ts";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-call-lines-")));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A table cache over `dir` whose clock runs ahead (fresh files count as settled), counting reads. */
function cache(): { tables: LineTables; reads: string[] } {
  const ws = workspaceAt(dir);
  const reads: string[] = [];
  const tables = new LineTables(
    {
      identify: (abs) => ws.tryIdentify(abs),
      read: (abs) => {
        reads.push(abs.slice(dir.length + 1));
        return ws.tryRead(abs);
      },
    },
    undefined,
    () => Date.now() + 2 * RACY_MARGIN_MS,
  );
  return { tables, reads };
}

function call(tables: LineTables, budget: number, open: Record<string, OpenLines> = {}) {
  return new CallLines(tables, LSP_LINES, budget, (abs) => open[abs]);
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test("sixty links of one file: one read, one table, counted once against the budget", async () => {
  const first = file("big.c", "x\n".repeat(500));
  const links = [first];
  for (let i = 0; i < 59; i++) {
    const link = join(dir, `link${String(i).padStart(2, "0")}.c`);
    linkSync(first, link);
    links.push(link);
  }
  const { tables, reads } = cache();
  // a budget of one copy: sixty would be far past it
  const lines = call(tables, 1000);
  await lines.load(links);
  expect(reads).toEqual(["big.c"]);
  const table = lines.get(first);
  expect(table).toBeInstanceOf(AsciiLines);
  for (const link of links) expect(lines.get(link)).toBe(table);
  expect(tables.stats().entries).toBe(1);
  // a later call: one lstat per path, no read
  await call(tables, 1000).load(links);
  expect(reads).toEqual(["big.c"]);
});

test("past the budget, in path order: the same files whether cached or read", async () => {
  const names = ["d.c", "a.c", "c.c", "b.c"];
  const paths = names.map((n) => file(n, `${n}\n`.repeat(25))); // 100 bytes each
  const fresh = cache();
  const cold = call(fresh.tables, 250);
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
  const warm = call(fresh.tables, 250);
  await warm.load([...paths].reverse());
  expect(verdict(warm)).toEqual(verdict(cold));
});

test("an open document counts like the file and serves its own table", async () => {
  const a = file("a.ts", "é\n");
  const b = file("b.ts", "b\n".repeat(10));
  const { tables, reads } = cache();
  const index = new LineIndex("é\n");
  const open = { [a]: { index, text: "é\n", identity: tables.identity(a) ?? null } };
  const lines = call(tables, 4, open);
  await lines.load([b, a]);
  expect(lines.get(a)).toBe(index);
  // a.ts (3 bytes) first in path order; b.ts (20) is past the 4-byte budget
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
  const lf = new CallLines(tables, lineModel(["lf"]), 1 << 20, () => undefined);
  await lsp.load([path]);
  await lf.load([path]);
  expect(lsp.get(path)).toBeInstanceOf(AsciiLines);
  const own = lf.get(path) as LineIndex;
  expect(own).toBeInstanceOf(LineIndex);
  expect(own.sameLines).toBe(false);
  expect(tables.stats().entries).toBe(2);
});

test("peek reads nothing: an uncached file, or one past the budget, is pending until load", async () => {
  const a = file("a.c", "a\n".repeat(50)); // 100 bytes
  const b = file("b.c", "b\n".repeat(50));
  const { tables, reads } = cache();
  const first = call(tables, 150);
  expect(first.peek(a)).toBe(PENDING);
  expect(reads).toEqual([]);
  await first.load([b, a]);
  expect(reads).toEqual(["a.c"]);
  expect(first.get(b)).toBe("budget");
  // cached now: a later call peeks a.c at once, and b.c (uncached) stays pending
  const second = call(tables, 150);
  expect(second.peek(a)).toBeInstanceOf(AsciiLines);
  expect(second.peek(b)).toBe(PENDING);
  // both cached: within the budget in any order, past it only in canonical order
  await call(tables, 1000).load([a, b]);
  const third = call(tables, 150);
  expect(third.peek(b)).toBeInstanceOf(AsciiLines);
  expect(third.peek(a)).toBe(PENDING);
  await third.load([b, a]);
  expect([third.get(a), third.get(b)].map((t) => t === "budget")).toEqual([false, true]);
});
