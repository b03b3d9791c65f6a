import { expect, test } from "bun:test";
import { ChangedFiles } from "../../../src/session/changed-files.ts";

test("every file of a drain is noted with its mark; since(mark) is what changed later", () => {
  const c = new ChangedFiles();
  c.note([]);
  expect(c.mark).toBe(0); // an empty drain moves nothing
  c.note([
    { abs: "/w/a.c", kind: "changed" },
    { abs: "/w/b.c", kind: "created" },
  ]);
  const mark = c.mark;
  c.note([{ abs: "/w/c.c", kind: "deleted" }]);
  c.note([{ abs: "/w/a.c", kind: "changed" }]);
  expect(c.since(0).sort()).toEqual(["/w/a.c", "/w/b.c", "/w/c.c"]);
  expect(c.since(mark).sort()).toEqual(["/w/a.c", "/w/c.c"]);
  expect(c.since(c.mark)).toEqual([]);
  expect(c.whole).toBe(true);
});

test("past the bound the record is no longer whole, until a new life", () => {
  const c = new ChangedFiles(2);
  c.note([
    { abs: "/w/a", kind: "changed" },
    { abs: "/w/b", kind: "changed" },
  ]);
  expect(c.whole).toBe(true);
  c.note([{ abs: "/w/a", kind: "changed" }]); // a file seen again takes no room
  expect(c.whole).toBe(true);
  c.note([{ abs: "/w/c", kind: "created" }]);
  expect(c.whole).toBe(false);
  expect(c.since(0).length).toBe(2);
  c.reset();
  expect([c.whole, c.mark, c.since(0)]).toEqual([true, 0, []]);
});
