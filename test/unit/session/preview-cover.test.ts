/**
 * What a preview cannot show (SPEC §6.2, session/preview-cover.ts), as a table: which
 * servers read a proposed file from disk instead of as the document it became.
 */
import { describe, expect, test } from "bun:test";
import type { ServerConfig } from "../../../src/config/types.ts";
import {
  diskUncovered,
  NEW_FILES,
  type ProposedFile,
  READ_FROM_DISK,
} from "../../../src/session/preview-cover.ts";

const server = (name: string, extensions: string[], more: Partial<ServerConfig> = {}) =>
  ({
    name,
    extensions: Object.fromEntries(extensions.map((e) => [e, name])),
    restart_on: [],
    reload_on: [],
    reads: ["**"],
    data_files: false,
    package_manifest: null,
    ...more,
  }) as unknown as ServerConfig;

const GOPLS = server("gopls", ["go"], { package_manifest: "go.mod" });
const TSLS = server("tsls", ["ts"], {
  restart_on: ["**/{tsconfig,jsconfig}*.json"],
  reads: ["**/*.{ts,js,json}", "**/node_modules/{*,@*/*}"],
});
const CLANGD = server("clangd", ["c", "h", "cpp"], {
  restart_on: ["**/compile_commands.json", "**/*.h"],
});
const JSON_LS = server("json", ["json"], { data_files: true });
const TAPLO = server("taplo", ["toml"], { data_files: true });
const ALL = [GOPLS, TSLS, CLANGD, JSON_LS, TAPLO];

/** Directories holding sources: "dir:ext" pairs. */
function holding(...pairs: string[]) {
  return (dir: string, exts: ReadonlySet<string>) =>
    pairs.some((p) => {
      const [d, e] = p.split(":");
      return d === dir && exts.has(e ?? "");
    });
}

const to = (rel: string, srv: string, exists = true): ProposedFile => ({
  rel,
  server: srv,
  exists,
});
const marks = (proposed: ProposedFile[], holds = holding()) =>
  diskUncovered(ALL, proposed, holds).map(
    (u) =>
      `${u.server} ${u.files.join(",")} ${u.reason === NEW_FILES ? "new" : u.reason === READ_FROM_DISK ? "disk" : "?"}`,
  );

describe("diskUncovered", () => {
  const rows: [string, ProposedFile[], ReturnType<typeof holding>, string[]][] = [
    ["a source to its own server: nothing", [to("lib/a.go", "gopls")], holding("lib:go"), []],
    [
      "go.mod to gopls itself: read from disk",
      [to("go.mod", "gopls")],
      holding(),
      ["gopls go.mod disk"],
    ],
    [
      "a JSON module tsserver imports",
      [to("ts/data.json", "json")],
      holding(),
      ["tsls ts/data.json disk", "json ts/data.json disk"],
    ],
    [
      "a tsconfig to the JSON server",
      [to("tsconfig.json", "json")],
      holding(),
      ["tsls tsconfig.json disk", "json tsconfig.json disk"],
    ],
    [
      "a package's package.json",
      [to("pkg/package.json", "json")],
      holding(),
      ["tsls pkg/package.json disk", "json pkg/package.json disk"],
    ],
    [
      "a cgo header beside Go sources",
      [to("lib/cg/cg.h", "clangd")],
      holding("lib/cg:go"),
      ["gopls lib/cg/cg.h disk"],
    ],
    [
      "a file an embedding package above may read",
      [to("lib/em/static/x.txt", "text")],
      holding("lib/em:go"),
      ["gopls lib/em/static/x.txt disk"],
    ],
    [
      "a JSON file beside C sources",
      [to("cpp/x.json", "json")],
      holding("cpp:cpp"),
      ["tsls cpp/x.json disk", "clangd cpp/x.json disk", "json cpp/x.json disk"],
    ],
    ["a header to clangd: followed as a document", [to("src/a.h", "clangd")], holding("src:c"), []],
    ["a TypeScript file far from Go sources", [to("web/a.ts", "tsls")], holding("lib:go"), []],
    [
      "a Go edit beside data files at the root: no data-file server named",
      [to("lib/a.go", "gopls")],
      holding(".:toml", ".:json", "lib:go"),
      [],
    ],
    [
      "a JSON schema: the JSON server reads it from disk for the files it validates",
      [to("j/s.schema.json", "json")],
      holding(),
      ["tsls j/s.schema.json disk", "json j/s.schema.json disk"],
    ],
    [
      "a new file: its server is told",
      [to("ts/new.ts", "tsls", false)],
      holding(),
      ["tsls ts/new.ts new"],
    ],
  ];
  for (const [what, proposed, holds, expected] of rows) {
    test(what, () => expect(marks(proposed, holds)).toEqual(expected));
  }
});
