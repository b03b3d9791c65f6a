import { describe, expect, test } from "bun:test";
import { lookupsOf, lookupsToWatch } from "../../../src/workspace/outside-lookups.ts";

/** A file system of links alone: everything else is no link. */
const links =
  (table: Record<string, string>) =>
  (path: string): string | null =>
    table[path] ?? null;

interface Row {
  what: string;
  path: string;
  table: Record<string, string>;
  want: string[];
}

describe("lookupsOf: what a path is looked up through", () => {
  test.each<Row>([
    {
      what: "no link: each name in its parent",
      path: "/a/b/c",
      table: {},
      want: ["/:a", "/a:b", "/a/b:c"],
    },
    {
      what: "a relative link: its target looked up beside it, then the rest",
      path: "/w/lib/x.h",
      table: { "/w/lib": "lib-a" },
      want: ["/:w", "/w:lib", "/w:lib-a", "/w/lib-a:x.h"],
    },
    {
      what: "an absolute link starts again at the top",
      path: "/w/lib/x.h",
      table: { "/w/lib": "/opt/v2" },
      want: ["/:w", "/w:lib", "/:opt", "/opt:v2", "/opt/v2:x.h"],
    },
    {
      what: "`..` after a link is taken where the link led",
      path: "/w/l/../y",
      table: { "/w/l": "/p/q" },
      want: ["/:w", "/w:l", "/:p", "/p:q", "/p:y"],
    },
    {
      what: "a link to a link",
      path: "/w/a",
      table: { "/w/a": "b", "/w/b": "c" },
      want: ["/:w", "/w:a", "/w:b", "/w:c"],
    },
  ])("$what", ({ path, table, want }) => {
    expect(lookupsOf(path, links(table)).map((l) => `${l.dir}:${l.name}`)).toEqual(want);
  });

  test("a loop of links ends (the kernel's 40)", () => {
    const got = lookupsOf("/w/a/x", links({ "/w/a": "b", "/w/b": "a" }));
    expect(got.length).toBeLessThan(50);
  });
});

describe("lookupsToWatch: what may lead the path elsewhere while the root stays", () => {
  test.each<Row>([
    {
      what: "not inside the root, not on the way to it",
      path: "/home/u/proj/../vendor/shared",
      table: { "/home/u/vendor": "vendor-2" },
      want: ["/home/u:vendor", "/home/u:vendor-2", "/home/u/vendor-2:shared"],
    },
    {
      what: "a link inside the root to the outside: only the lookups outside it",
      path: "/home/u/proj/node_modules/lib/index.d.ts",
      table: { "/home/u/proj/node_modules/lib": "/srv/lib-a" },
      want: ["/:srv", "/srv:lib-a", "/srv/lib-a:index.d.ts"],
    },
  ])("$what", ({ path, table, want }) => {
    const got = lookupsToWatch(path, "/home/u/proj", links(table));
    expect(got.map((l) => `${l.dir}:${l.name}`)).toEqual(want);
  });
});
