/**
 * The cross-call cache of line tables (SPEC §5.1) never serves a table for content the file
 * no longer has: validated by a stat, or — for files under a workspace watch — by the
 * watcher's queue alone.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AsciiLines } from "../../../src/lsp/line-columns.ts";
import { LineIndex } from "../../../src/lsp/positions.ts";
import {
  LineIndexCache,
  RACY_MARGIN_MS,
  settledAt,
} from "../../../src/normalize/line-index-cache.ts";
import { onWorkspaceChanges, WorkspaceWatcher } from "../../../src/workspace/watch.ts";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-line-cache-")));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function fileWith(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A cache whose clock runs RACY_MARGIN_MS ahead, so fresh files count as settled. */
function cacheAhead(budget?: number): LineIndexCache {
  return new LineIndexCache(budget, () => Date.now() + 2 * RACY_MARGIN_MS);
}

test("a settled, unchanged file is served from the cache; a rewrite is seen at once", () => {
  const cache = cacheAhead();
  const path = fileWith("a.ts", "const a = 1;\n");
  const first = cache.get(dir, path, 1 << 20);
  expect(first).toBeInstanceOf(AsciiLines);
  expect(cache.get(dir, path, 1 << 20)).toBe(first as AsciiLines);
  // new content of another size (a same-size rewrite in the same tick is the racy case below)
  writeFileSync(path, "const b = 'é';\n");
  const second = cache.get(dir, path, 1 << 20);
  expect(second).toBeInstanceOf(LineIndex);
  expect((second as LineIndex).text).toBe("const b = 'é';\n");
});

test("a file replaced by rename, with its old mtime restored, is re-read (inode, ctime)", () => {
  const cache = cacheAhead();
  const path = fileWith("b.ts", "one\n");
  expect((cache.get(dir, path, 1 << 20) as AsciiLines).lineCount).toBe(2);
  const other = join(dir, "b.tmp");
  writeFileSync(other, "a\nb\n");
  const past = new Date(Date.now() - 60_000);
  utimesSync(other, past, past);
  renameSync(other, path);
  expect((cache.get(dir, path, 1 << 20) as AsciiLines).lineCount).toBe(3);
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
  const cache = new LineIndexCache();
  const path = fileWith("c.ts", "é = 1;\n");
  expect((cache.get(dir, path, 1 << 20) as LineIndex).text).toBe("é = 1;\n");
  writeFileSync(path, "ü = 2;\n"); // same size, likely the same timestamp tick
  expect((cache.get(dir, path, 1 << 20) as LineIndex).text).toBe("ü = 2;\n");
});

test("missing, too large, non-UTF-8 and non-regular files give no table and drop the entry", () => {
  const cache = cacheAhead();
  const path = fileWith("d.ts", "abc\n");
  expect(cache.get(dir, path, 1 << 20)).toBeDefined();
  expect(cache.get(dir, path, 2)).toBeUndefined();
  expect(cache.stats().entries).toBe(0);
  expect(cache.get(dir, join(dir, "missing.ts"), 1 << 20)).toBeUndefined();
  expect(cache.get(dir, dir, 1 << 20)).toBeUndefined();
  writeFileSync(path, new Uint8Array([0x61, 0xff, 0x0a]));
  expect(cache.get(dir, path, 1 << 20)).toBeUndefined();
  rmSync(path);
  expect(cache.get(dir, path, 1 << 20)).toBeUndefined();
});

test("only files beneath the root are read; an entry of one root never serves another", () => {
  const cache = cacheAhead();
  const inner = join(dir, "ws");
  mkdirSync(inner);
  const outside = fileWith("outside.ts", "secret\n");
  expect(cache.get(inner, outside, 1 << 20)).toBeUndefined();
  // a link inside the root to the file outside is not followed either
  symlinkSync(outside, join(inner, "link.ts"));
  expect(cache.get(inner, join(inner, "link.ts"), 1 << 20)).toBeUndefined();
  // the outer root may read it, and that entry stays its own
  expect(cache.get(dir, outside, 1 << 20)).toBeInstanceOf(AsciiLines);
  expect(cache.get(inner, outside, 1 << 20)).toBeUndefined();
});

test("the cache stays within its byte budget, least recently used out first", () => {
  const paths = ["e1.ts", "e2.ts", "e3.ts"].map((n) => fileWith(n, "a\n".repeat(10)));
  // what one entry costs here: it counts its root and path, whose length depends on TMPDIR
  const probe = cacheAhead();
  probe.get(dir, paths[0] as string, 1 << 20);
  const one = probe.stats().bytes;
  const cache = cacheAhead(2 * one); // room for two of the three
  const tables = paths.map((p) => cache.get(dir, p, 1 << 20));
  const { bytes, entries } = cache.stats();
  expect(bytes).toBeLessThanOrEqual(2 * one);
  expect(entries).toBe(2);
  // the two most recent are served from the cache; the first one went and is read again
  expect(cache.get(dir, paths[2] as string, 1 << 20)).toBe(tables[2] as AsciiLines);
  expect(cache.get(dir, paths[1] as string, 1 << 20)).toBe(tables[1] as AsciiLines);
  const again = cache.get(dir, paths[0] as string, 1 << 20);
  expect(again).toBeInstanceOf(AsciiLines);
  expect(again).not.toBe(tables[0] as AsciiLines);
});

describe("validated by the workspace watcher", () => {
  /** A real watcher on `dir` (a session's subscription) and a cache fed by it. */
  function watched(): { cache: LineIndexCache; watcher: WorkspaceWatcher; close: () => void } {
    const watcher = new WorkspaceWatcher(dir, 100);
    const sub = watcher.subscribe(
      () => true,
      () => {},
    );
    // the real clock: files written just now are never settled for the stat rule
    const cache = new LineIndexCache(undefined, Date.now, undefined, () => watcher);
    const stop = onWorkspaceChanges((changes) => cache.forget(changes));
    return {
      cache,
      watcher,
      close: () => {
        stop();
        sub.close();
      },
    };
  }

  test("an unchanged file under a watch is served without a stat, even when just written", () => {
    const path = fileWith("w1.ts", "x = 'é';\n");
    const { cache, close } = watched();
    try {
      const first = cache.reader(dir, 1 << 20)(path);
      expect(first).toBeInstanceOf(LineIndex);
      // the stat rule would re-read a file this fresh (racy margin); the watch says unchanged
      expect(cache.reader(dir, 1 << 20)(path)).toBe(first as LineIndex);
    } finally {
      close();
    }
  });

  test("a same-size rewrite in the same tick is seen at the next call's first lookup", () => {
    const path = fileWith("w2.ts", "é = 1;\n");
    const { cache, close } = watched();
    try {
      expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("é = 1;\n");
      writeFileSync(path, "ü = 2;\n");
      expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("ü = 2;\n");
      renameSync(fileWith("w2.tmp", "a\nb\nc\n"), path); // an atomic save
      expect((cache.reader(dir, 1 << 20)(path) as AsciiLines).lineCount).toBe(4);
      rmSync(path);
      expect(cache.reader(dir, 1 << 20)(path)).toBeUndefined();
    } finally {
      close();
    }
  });

  test("a file read before its directory was watched, or after the watch ended, is stat-checked", () => {
    const path = fileWith("w3.ts", "é\n");
    const cache = new LineIndexCache(undefined, Date.now);
    const before = cache.get(dir, path, 1 << 20);
    // fresh file, no watch: the stat rule re-reads it (not settled yet)
    expect(cache.get(dir, path, 1 << 20)).not.toBe(before as LineIndex);
    const { cache: fed, watcher, close } = watched();
    const read = fed.reader(dir, 1 << 20)(path);
    expect(watcher.coverage(path)).toBeNumber();
    close(); // the last subscriber left: nothing is watched any more
    expect(watcher.coverage(path)).toBeUndefined();
    expect(fed.reader(dir, 1 << 20)(path)).not.toBe(read as LineIndex);
  });

  test("a directory recreated during a queue overflow: its files' tables are read again", () => {
    mkdirSync(join(dir, "d"));
    mkdirSync(join(dir, "many"));
    const path = fileWith("d/w7.ts", "é = 1;\n");
    const { cache, close } = watched();
    try {
      expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("é = 1;\n");
      const max = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"));
      for (let i = 0; i <= max; i++) writeFileSync(join(dir, "many", `f${i % 64}`), String(i));
      rmSync(join(dir, "d"), { recursive: true });
      mkdirSync(join(dir, "d"));
      writeFileSync(path, "é = 1;\n");
      // this lookup drains the overflowed queue; the table is read under the new watch
      expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("é = 1;\n");
      writeFileSync(path, "ü = 2;\n"); // same size, same tick: only the watch can tell
      expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("ü = 2;\n");
    } finally {
      close();
    }
  });

  test("a path through a symlinked directory is never covered", () => {
    mkdirSync(join(dir, "real"));
    const path = fileWith("real/w4.ts", "a\n");
    symlinkSync(join(dir, "real"), join(dir, "alias"));
    const { watcher, close } = watched();
    try {
      expect(watcher.coverage(path)).toBeNumber();
      expect(watcher.coverage(join(dir, "alias", "w4.ts"))).toBeUndefined();
      expect(watcher.coverage(join(dir, "real", "not-there.ts"))).toBeUndefined();
    } finally {
      close();
    }
  });
});

test("a directory no longer watched (the servers' interest moved): its files are stat-checked again", () => {
  mkdirSync(join(dir, "sub"));
  const path = fileWith("sub/w5.ts", "é = 1;\n");
  let wanted = true;
  const watcher = new WorkspaceWatcher(dir, 100);
  const sub = watcher.subscribe(
    (d) => wanted || d === dir,
    () => {},
  );
  const cache = new LineIndexCache(undefined, Date.now, undefined, () => watcher);
  const stop = onWorkspaceChanges((changes) => cache.forget(changes));
  try {
    expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("é = 1;\n");
    wanted = false;
    sub.refresh(); // sub/ is unwatched now: no event will report the next write
    writeFileSync(path, "ü = 2;\n");
    expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("ü = 2;\n");
  } finally {
    stop();
    sub.close();
  }
});

test("a file with another hard link is stat-checked, a watch notwithstanding", () => {
  mkdirSync(join(dir, "unwatched"));
  const path = fileWith("w6.ts", "é = 1;\n");
  const other = join(dir, "unwatched", "w6-link.ts");
  linkSync(path, other);
  const watcher = new WorkspaceWatcher(dir, 100);
  // only the root is watched: a write through the other link reports nothing here
  const sub = watcher.subscribe(
    (d) => d === dir,
    () => {},
  );
  const cache = new LineIndexCache(undefined, Date.now, undefined, () => watcher);
  const stop = onWorkspaceChanges((changes) => cache.forget(changes));
  try {
    expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("é = 1;\n");
    writeFileSync(other, "ü = 2;\n");
    expect((cache.reader(dir, 1 << 20)(path) as LineIndex).text).toBe("ü = 2;\n");
  } finally {
    stop();
    sub.close();
  }
});
