/**
 * The cross-call cache of line tables (SPEC §5.1) never serves a table for content the file
 * no longer has: an entry is reused only while a stat shows the identity it was read with,
 * and only once its ctime is older than the read by more than a timestamp tick.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AsciiLines, type LineColumns } from "../../../src/text/line-columns.ts";
import { LineIndex } from "../../../src/text/line-index.ts";
import { type LineModel, LSP_LINES } from "../../../src/text/line-model.ts";
import { LineTables, RACY_MARGIN_MS, settledAt } from "../../../src/workspace/line-tables.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { workspaceAt } from "../../support/workspace.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("theodolite-line-cache-");
});
afterEach(removeTempDirs);

function fileWith(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Tables of files read beneath `root` (at most `maxFileBytes` each), as a Workspace reads them. */
function tablesOf(
  root: string,
  opts: { budget?: number; now?: () => number; maxFileBytes?: number } = {},
): Tables {
  const ws = workspaceAt(root, { maxFileBytes: opts.maxFileBytes ?? 1 << 20 });
  const cache = new LineTables(
    { identify: (abs) => ws.tryIdentify(abs), read: (abs) => ws.tryRead(abs) },
    opts.budget,
    opts.now,
  );
  return {
    cache,
    get: (abs, model = LSP_LINES) => {
      const identity = cache.identity(abs);
      const got = identity === undefined ? undefined : cache.get(abs, identity, model);
      if (got === "budget") throw new Error("no budget was given");
      return got;
    },
    stats: () => cache.stats(),
  };
}

/** The cache and a path's table as a call takes it: its identity, then its table. */
interface Tables {
  cache: LineTables;
  get(abs: string, model?: LineModel): LineColumns | undefined;
  stats(): { entries: number; bytes: number; paths: number };
}

/** Tables whose clock runs RACY_MARGIN_MS ahead, so fresh files count as settled. */
function cacheAhead(budget?: number, root = dir, maxFileBytes?: number): Tables {
  return tablesOf(root, { budget, now: () => Date.now() + 2 * RACY_MARGIN_MS, maxFileBytes });
}

test("a settled, unchanged file is served from the cache; a rewrite is seen at once", () => {
  const cache = cacheAhead();
  const path = fileWith("a.ts", "const a = 1;\n");
  const first = cache.get(path);
  expect(first).toBeInstanceOf(AsciiLines);
  expect(cache.get(path)).toBe(first as AsciiLines);
  // new content of another size (a same-size rewrite in the same tick is the racy case below)
  writeFileSync(path, "const b = 'é';\n");
  const second = cache.get(path);
  expect(second).toBeInstanceOf(LineIndex);
  expect((second as LineIndex).text).toBe("const b = 'é';\n");
});

test("a file replaced by rename, with its old mtime restored, is re-read (inode, ctime)", () => {
  const cache = cacheAhead();
  const path = fileWith("b.ts", "one\n");
  expect((cache.get(path) as AsciiLines).lineCount).toBe(2);
  const other = join(dir, "b.tmp");
  writeFileSync(other, "a\nb\n");
  const past = new Date(Date.now() - 60_000);
  utimesSync(other, past, past);
  renameSync(other, path);
  expect((cache.get(path) as AsciiLines).lineCount).toBe(3);
});

test("only a ctime older than the read by more than a timestamp tick lets an entry be reused", () => {
  const read = 1_000_000;
  expect(settledAt(read - RACY_MARGIN_MS - 1, read)).toBe(true);
  expect(settledAt(read - RACY_MARGIN_MS, read)).toBe(false);
  expect(settledAt(read - 5, read)).toBe(false);
  expect(settledAt(read + 5, read)).toBe(false);
  expect(RACY_MARGIN_MS).toBeGreaterThanOrEqual(10); // a jiffy at HZ=100
});

test("a file rewritten within the racy margin of its read is re-read, even at the same size", () => {
  // the real clock: the file was written just now, so its entry is not trusted yet
  const cache = tablesOf(dir);
  const path = fileWith("c.ts", "é = 1;\n");
  expect((cache.get(path) as LineIndex).text).toBe("é = 1;\n");
  writeFileSync(path, "ü = 2;\n"); // same size, likely the same timestamp tick
  expect((cache.get(path) as LineIndex).text).toBe("ü = 2;\n");
});

test("missing, too large, non-UTF-8 and non-regular files give no table and drop the entry", () => {
  const path = fileWith("d.ts", "abc\n");
  const cache = cacheAhead();
  expect(cache.get(path)).toBeDefined();
  writeFileSync(path, "abcdef\n");
  expect(cacheAhead(undefined, dir, 2).get(path)).toBeUndefined();
  expect(cache.get(join(dir, "missing.ts"))).toBeUndefined();
  expect(cache.get(dir)).toBeUndefined();
  writeFileSync(path, new Uint8Array([0x61, 0xff, 0x0a]));
  expect(cache.get(path)).toBeUndefined();
  expect(cache.stats().entries).toBe(0);
  rmSync(path);
  expect(cache.get(path)).toBeUndefined();
});

test("only files beneath the workspace root are read, never through a link leading out", () => {
  const inner = join(dir, "ws");
  mkdirSync(inner);
  const outside = fileWith("outside.ts", "secret\n");
  const cache = cacheAhead(undefined, inner);
  expect(cache.get(outside)).toBeUndefined();
  symlinkSync(outside, join(inner, "link.ts"));
  expect(cache.get(join(inner, "link.ts"))).toBeUndefined();
  // the outer root may read it
  expect(cacheAhead().get(outside)).toBeInstanceOf(AsciiLines);
});

test("the cache stays within its byte budget, least recently used out first", () => {
  const paths = ["e1.ts", "e2.ts", "e3.ts"].map((n) => fileWith(n, "a\n".repeat(10)));
  // what one entry costs here: it counts its path, whose length depends on TMPDIR
  const probe = cacheAhead();
  probe.get(paths[0] as string);
  const one = probe.stats().bytes;
  const cache = cacheAhead(2 * one); // room for two of the three
  const tables = paths.map((p) => cache.get(p));
  const { bytes, entries } = cache.stats();
  expect(bytes).toBeLessThanOrEqual(2 * one);
  expect(entries).toBe(2);
  // the two most recent are served from the cache; the first one went and is read again
  expect(cache.get(paths[2] as string)).toBe(tables[2] as AsciiLines);
  expect(cache.get(paths[1] as string)).toBe(tables[1] as AsciiLines);
  const again = cache.get(paths[0] as string);
  expect(again).toBeInstanceOf(AsciiLines);
  expect(again).not.toBe(tables[0] as AsciiLines);
});
