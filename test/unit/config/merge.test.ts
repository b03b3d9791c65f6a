/** SPEC §2.1: the one merge of configuration tables — nested tables key by key, the rest replaced. */
import { describe, expect, test } from "bun:test";
import { mergeTables } from "../../../src/config/merge.ts";

describe("mergeTables", () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, unknown][] = [
    [
      "a discovered tsserver path keeps the preset's file watcher",
      { preferences: {}, tsserver: { useClientFileWatcher: true } },
      { tsserver: { path: "/ts/lib/tsserver.js" } },
      { preferences: {}, tsserver: { useClientFileWatcher: true, path: "/ts/lib/tsserver.js" } },
    ],
    [
      "at every depth",
      { a: { b: { c: 1, d: 2 } } },
      { a: { b: { d: 3, e: 4 } } },
      { a: { b: { c: 1, d: 3, e: 4 } } },
    ],
    ["arrays replace", { args: ["--a", "--b"] }, { args: ["--c"] }, { args: ["--c"] }],
    ["scalars replace", { level: "info", on: true }, { on: false }, { level: "info", on: false }],
    ["a table over a scalar replaces it", { x: 1 }, { x: { y: 2 } }, { x: { y: 2 } }],
    ["a scalar over a table replaces it", { x: { y: 2 } }, { x: 1 }, { x: 1 }],
    ["an empty table adds nothing", { x: { y: 2 } }, { x: {} }, { x: { y: 2 } }],
    ["null replaces", { x: { y: 2 } }, { x: null }, { x: null }],
    ["nothing over", { x: { y: 2 } }, {}, { x: { y: 2 } }],
  ];
  for (const [name, base, over, expected] of cases) {
    test(name, () => {
      expect(mergeTables(base, over)).toEqual(expected as Record<string, unknown>);
    });
  }

  test("neither argument is modified, nor shared with the result", () => {
    const base = { tsserver: { useClientFileWatcher: true }, args: ["--stdio"] };
    const over = { tsserver: { path: "/p" }, env: { A: "1" } };
    const merged = mergeTables(base, over) as unknown as {
      tsserver: Record<string, unknown>;
      args: string[];
      env: Record<string, string>;
    };
    merged.tsserver.extra = 1;
    merged.args.push("--more");
    merged.env.B = "2";
    expect(base).toEqual({ tsserver: { useClientFileWatcher: true }, args: ["--stdio"] });
    expect(over).toEqual({ tsserver: { path: "/p" }, env: { A: "1" } });
  });
});
