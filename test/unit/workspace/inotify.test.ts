/** The raw inotify event parser (SPEC §5.2): records as the kernel lays them out. */
import { describe, expect, test } from "bun:test";
import { IN_CREATE, IN_ISDIR, parseEvents } from "../../../src/workspace/inotify.ts";

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
