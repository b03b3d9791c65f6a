/** The raw inotify event parser (SPEC §5.2): records as the kernel lays them out. */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IN_CREATE, IN_ISDIR, Inotify, parseEvents } from "../../../src/ffi/inotify.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

describe("parseEvents", () => {
  function record(wd: number, mask: number, name: string, pad: number): Uint8Array {
    const nameBytes = new TextEncoder().encode(name);
    const len = nameBytes.length === 0 ? 0 : nameBytes.length + pad;
    const buf = new Uint8Array(16 + len);
    const view = new DataView(buf.buffer);
    view.setInt32(0, wd, true);
    view.setUint32(4, mask, true);
    view.setUint32(8, 7, true);
    view.setUint32(12, len, true);
    buf.set(nameBytes, 16);
    return buf;
  }

  test("records with NUL-padded names; a truncated record ends the list", () => {
    const a = record(1, IN_CREATE, "ä.py", 3);
    const b = record(2, IN_CREATE | IN_ISDIR, "dir", 5);
    const c = record(3, 0x400, "", 0);
    const all = new Uint8Array(a.length + b.length + c.length);
    all.set(a, 0);
    all.set(b, a.length);
    all.set(c, a.length + b.length);
    expect(parseEvents(all, all.length)).toEqual([
      { wd: 1, mask: IN_CREATE, cookie: 7, name: "ä.py" },
      { wd: 2, mask: IN_CREATE | IN_ISDIR, cookie: 7, name: "dir" },
      { wd: 3, mask: 0x400, cookie: 7, name: "" },
    ]);
    expect(parseEvents(all, a.length + 10)).toEqual([
      { wd: 1, mask: IN_CREATE, cookie: 7, name: "ä.py" },
    ]);
  });
});

describe("Inotify.drain", () => {
  function opened(queueLimit?: number): Inotify {
    const inotify = Inotify.open(queueLimit);
    if (!(inotify instanceof Inotify)) throw new Error(inotify.error);
    return inotify;
  }

  test("everything queued at its start, and no more than the queue's capacity beyond it", () => {
    const dir = tempDir("theodolite-tree-", []);
    // a queue said to hold 10 events: a drain may stop once it read more than that
    const bounded = opened(10);
    const whole = opened();
    try {
      for (const inotify of [bounded, whole]) {
        expect(typeof inotify.addWatch(dir, IN_CREATE)).toBe("number");
      }
      // 5,000 creations: ~160 KB of records, more than one 64 KB read
      const names = Array.from({ length: 5000 }, (_, i) => `f${String(i).padStart(4, "0")}`);
      for (const name of names) writeFileSync(join(dir, name), "");
      const first = bounded.drain();
      expect(first.length).toBeGreaterThan(10);
      expect(first.length).toBeLessThan(names.length); // it stopped after one read
      // the rest comes with the next drains, in order: nothing is lost
      const seen = [...first];
      for (let more = bounded.drain(); more.length > 0; more = bounded.drain()) seen.push(...more);
      expect(seen.map((e) => e.name)).toEqual(names);
      // with the kernel's capacity, one drain reads all that was queued
      expect(whole.drain().map((e) => e.name)).toEqual(names);
    } finally {
      bounded.close();
      whole.close();
    }
  });
});
