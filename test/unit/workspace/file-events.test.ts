/**
 * File events as the LSP sees them (SPEC §5.2), pure: registered watchers (string globs,
 * RelativePatterns, kind bits), which changes they match, which directories they could
 * match in, and coalescing the changes seen between two looks into one per file.
 */
import { describe, expect, test } from "bun:test";
import type { Registration } from "vscode-languageserver-protocol";
import {
  type ChangeKind,
  coalesce,
  compileWatchers,
  directoryOfInterest,
  type FileChange,
  firstMatch,
  matchingEvents,
  watcherMatches,
  watcherReach,
} from "../../../src/workspace/file-events.ts";

const ROOT = "/ws";

function registration(
  watchers: unknown[],
  method = "workspace/didChangeWatchedFiles",
): Registration {
  return { id: `r${watchers.length}`, method, registerOptions: { watchers } };
}

const change = (abs: string, kind: ChangeKind = "changed"): FileChange => ({ abs, kind });

describe("compileWatchers", () => {
  test("string globs, RelativePatterns (URI or workspace folder base), kind default 7", () => {
    const compiled = compileWatchers([
      registration([
        { globPattern: "**/*.py" },
        { globPattern: { baseUri: "file:///ws/src", pattern: "**/*.rs" }, kind: 2 },
        { globPattern: { baseUri: { uri: "file:///ws/", name: "ws" }, pattern: "Cargo.toml" } },
        { globPattern: "/ws/pkg/**/*" },
      ]),
    ]);
    expect(compiled.map((w) => [w.pattern, w.base, w.kind, w.scope])).toEqual([
      ["**/*.py", null, 7, null],
      ["/ws/src/**/*.rs", "/ws/src", 2, "/ws/src"],
      ["/ws/Cargo.toml", "/ws", 7, "/ws"],
      ["/ws/pkg/**/*", null, 7, "/ws/pkg"],
    ]);
  });

  test("what a watcher outside the root reaches: one path, its scope's entries, or a tree", () => {
    const reach = (globPattern: unknown) =>
      compileWatchers([registration([{ globPattern }])]).map(watcherReach)[0];
    // a directory a server waits for (rust-analyzer's user configuration): that path alone,
    // not everything its parent holds
    expect(reach("/home/u/.config/rust-analyzer")).toEqual({
      path: "/home/u/.config/rust-analyzer",
      kind: "file",
    });
    expect(reach("/venv/lib/*.pth")).toEqual({ path: "/venv/lib", kind: "entries" });
    expect(reach("/venv/lib/**/*.py")).toEqual({ path: "/venv/lib", kind: "tree" });
    expect(reach({ baseUri: "file:///opt/sdk", pattern: "*/api.d.ts" })).toEqual({
      path: "/opt/sdk",
      kind: "tree",
    });
    expect(reach("**/*.py")).toBeNull();
  });

  test("anything malformed is ignored, as are other registrations", () => {
    const compiled = compileWatchers([
      registration([
        null,
        "**/*.py",
        { globPattern: "" },
        { globPattern: 3 },
        { globPattern: { baseUri: "https://example/x", pattern: "*" } },
        { globPattern: { baseUri: "file:///ws", pattern: "" } },
        { globPattern: { pattern: "*" } },
        { globPattern: "*.c", kind: "all" },
      ]),
      registration([{ globPattern: "**" }], "textDocument/diagnostic"),
      { id: "x", method: "workspace/didChangeWatchedFiles" },
      { id: "y", method: "workspace/didChangeWatchedFiles", registerOptions: { watchers: {} } },
    ]);
    expect(compiled.map((w) => [w.pattern, w.kind])).toEqual([["*.c", 7]]);
  });
});

describe("watcherMatches", () => {
  const [py, rsChangeOnly, cargo, abs, rel] = compileWatchers([
    registration([
      { globPattern: "**/*.py" },
      { globPattern: { baseUri: "file:///ws/src", pattern: "**/*.rs" }, kind: 2 },
      { globPattern: { baseUri: "file:///ws", pattern: "Cargo.{toml,lock}" }, kind: 5 },
      { globPattern: "/ws/pkg/*.ts" },
      { globPattern: "lib/*.ts" },
    ]),
  ]);

  test("string globs match the absolute path", () => {
    expect(watcherMatches(py!, change("/ws/a/b.py"), ROOT)).toBe(true);
    expect(watcherMatches(py!, change("/ws/a/b.pyc"), ROOT)).toBe(false);
    expect(watcherMatches(abs!, change("/ws/pkg/x.ts"), ROOT)).toBe(true);
    expect(watcherMatches(abs!, change("/ws/pkg/sub/x.ts"), ROOT)).toBe(false);
  });

  test("a relative string glob also matches the workspace-relative path", () => {
    expect(watcherMatches(rel!, change("/ws/lib/x.ts"), ROOT)).toBe(true);
    expect(watcherMatches(rel!, change("/ws/src/lib/x.ts"), ROOT)).toBe(false);
  });

  test("a RelativePattern matches below its base only", () => {
    expect(watcherMatches(rsChangeOnly!, change("/ws/src/a/m.rs"), ROOT)).toBe(true);
    expect(watcherMatches(rsChangeOnly!, change("/ws/tests/m.rs"), ROOT)).toBe(false);
    expect(watcherMatches(cargo!, change("/ws/Cargo.lock", "created"), ROOT)).toBe(true);
    expect(watcherMatches(cargo!, change("/ws/sub/Cargo.toml", "created"), ROOT)).toBe(false);
  });

  test("kind bits: 1 created, 2 changed, 4 deleted", () => {
    expect(watcherMatches(rsChangeOnly!, change("/ws/src/m.rs", "created"), ROOT)).toBe(false);
    expect(watcherMatches(rsChangeOnly!, change("/ws/src/m.rs", "deleted"), ROOT)).toBe(false);
    expect(watcherMatches(cargo!, change("/ws/Cargo.toml", "changed"), ROOT)).toBe(false);
    expect(watcherMatches(cargo!, change("/ws/Cargo.toml", "deleted"), ROOT)).toBe(true);
  });

  test("matchingEvents keeps the order of the changes and drops what nobody asked for", () => {
    const watchers = [py!, cargo!];
    const changes = [
      change("/ws/z.py", "created"),
      change("/ws/readme.md"),
      change("/ws/Cargo.toml", "deleted"),
      change("/ws/a.py", "deleted"),
    ];
    expect(matchingEvents(watchers, changes, ROOT)).toEqual([
      change("/ws/z.py", "created"),
      change("/ws/Cargo.toml", "deleted"),
      change("/ws/a.py", "deleted"),
    ]);
    expect(matchingEvents([], changes, ROOT)).toEqual([]);
  });
});

describe("directoryOfInterest", () => {
  test("inside a watcher's scope, or on the way to it; a relative glob reaches everywhere", () => {
    const scoped = compileWatchers([
      registration([
        { globPattern: { baseUri: "file:///ws/src", pattern: "**/*.rs" } },
        { globPattern: "/ws/pkg/lib/*.ts" },
      ]),
    ]);
    expect(directoryOfInterest(scoped, "/ws")).toBe(true);
    expect(directoryOfInterest(scoped, "/ws/src/deep/er")).toBe(true);
    expect(directoryOfInterest(scoped, "/ws/pkg")).toBe(true);
    expect(directoryOfInterest(scoped, "/ws/pkg/lib")).toBe(true);
    expect(directoryOfInterest(scoped, "/ws/docs")).toBe(false);
    expect(directoryOfInterest(scoped, "/ws/srcs")).toBe(false);
    expect(
      directoryOfInterest(compileWatchers([registration([{ globPattern: "**" }])]), "/ws/x"),
    ).toBe(true);
    expect(directoryOfInterest([], "/ws")).toBe(false);
  });
});

describe("coalesce", () => {
  const cases: [ChangeKind[], ChangeKind | null][] = [
    [["created"], "created"],
    [["created", "changed"], "created"],
    [["created", "deleted"], null],
    [["created", "deleted", "created"], "created"],
    [["changed", "changed"], "changed"],
    [["changed", "deleted"], "deleted"],
    [["deleted", "created"], "changed"],
    [["deleted", "created", "changed"], "changed"],
    [["deleted", "created", "deleted"], "deleted"],
  ];
  for (const [kinds, result] of cases) {
    test(`${kinds.join(" then ")} → ${result ?? "nothing"}`, () => {
      const out = coalesce(kinds.map((k) => change("/ws/f", k)));
      expect(out).toEqual(result === null ? [] : [change("/ws/f", result)]);
    });
  }

  test("one change per file, in the order each file was first seen", () => {
    const out = coalesce([
      change("/ws/b", "created"),
      change("/ws/a"),
      change("/ws/b"),
      change("/ws/c", "deleted"),
      change("/ws/a", "deleted"),
    ]);
    expect(out).toEqual([
      change("/ws/b", "created"),
      change("/ws/a", "deleted"),
      change("/ws/c", "deleted"),
    ]);
  });
});

describe("firstMatch", () => {
  const globs = ["**/{site,dist}-packages/*", "pyrightconfig.json"].map((g) => new Bun.Glob(g));
  test("inside the root by its relative path; outside by its absolute one, `**` reaching it", () => {
    const change = (abs: string) => [{ abs, kind: "created" as const }];
    expect(firstMatch(globs, change("/w/p/.venv/lib/site-packages/six"), "/w/p")).toBe(
      ".venv/lib/site-packages/six created",
    );
    expect(firstMatch(globs, change("/v/env/lib/site-packages/pkgx"), "/w/p")).toBe(
      "/v/env/lib/site-packages/pkgx created",
    );
    // a root-only pattern is no file outside it
    expect(firstMatch(globs, change("/w/pyrightconfig.json"), "/w/p")).toBeUndefined();
    expect(firstMatch(globs, change("/w/p/pyrightconfig.json"), "/w/p")).toBe(
      "pyrightconfig.json created",
    );
  });
});
