/**
 * What a server's URI names, kept across calls (SPEC §4.3): the kept name is the one worked
 * out afresh — inside the root relative, outside absolute, a non-file URI none — and the
 * memory of them stays within its count.
 */
import { expect, test } from "bun:test";
import { UriNames, uriName } from "../../../src/workspace/uri-names.ts";

const ws = { root: "/ws/link", rootReal: "/ws/real" };

test("a kept name is the name worked out afresh, for every kind of URI", () => {
  const names = new UriNames(ws);
  const uris = [
    "file:///ws/real/src/a.ts",
    "file:///ws/link/src/b.ts",
    "file:///ws/real/src//c.ts",
    "file:///ws/real/src/../d.ts",
    "file:///ws/real-sibling/e.ts",
    "file:///elsewhere/f%20g.ts",
    "untitled:Untitled-1",
    "file://host/share/h.ts",
  ];
  for (const uri of uris) {
    // asked twice: the second answer comes from what was kept
    const { path, file, target } = uriName(ws, uri);
    expect(names.of(uri)).toMatchObject({ path, file, target });
    expect(names.of(uri)).toMatchObject({ path, file, target });
  }
  expect(names.of("file:///ws/real/src/a.ts")).toMatchObject({
    path: "/ws/real/src/a.ts",
    file: "src/a.ts",
  });
  expect(names.of("file:///ws/link/src/b.ts").file).toBe("src/b.ts");
  expect(names.of("file:///ws/real-sibling/e.ts").file).toBe("/ws/real-sibling/e.ts");
  expect(names.of("untitled:Untitled-1")).toMatchObject({ path: null, file: null });
});

test("the names kept stay within their count, the oldest out first", () => {
  const names = new UriNames(ws, 3);
  const first = names.of("file:///ws/real/1.ts");
  for (const n of [2, 3, 4]) names.of(`file:///ws/real/${n}.ts`);
  // 1 was let go: asked again, it is worked out afresh (a new object, the same name)
  const again = names.of("file:///ws/real/1.ts");
  expect(again).not.toBe(first);
  expect(again).toEqual(first);
  // 4, the newest before 1 came back, is still kept
  expect(names.of("file:///ws/real/4.ts")).toBe(names.of("file:///ws/real/4.ts"));
});
