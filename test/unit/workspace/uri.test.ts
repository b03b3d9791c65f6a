/** file:// URIs ↔ absolute paths (src/workspace/uri.ts): the plain fast path agrees with URL parsing. */
import { describe, expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import { pathToUri, uriToPath } from "../../../src/workspace/uri.ts";

describe("URIs", () => {
  test("pathToUri percent-encodes; uriToPath inverts it", () => {
    const path = "/tmp/a b/ü#1?.c";
    const uri = pathToUri(path);
    expect(uri).toBe("file:///tmp/a%20b/%C3%BC%231%3F.c");
    expect(uriToPath(uri)).toBe(path);
  });

  test("uriToPath is null for non-file and remote URIs", () => {
    expect(uriToPath("untitled:Untitled-1")).toBeNull();
    expect(uriToPath("jdt://contents/x")).toBeNull();
    expect(uriToPath("file://server/share/x")).toBeNull();
    expect(uriToPath("file:///a/%2F/b")).toBeNull();
  });
});

describe("the fast path for plain URIs agrees with the general one", () => {
  const parts = ["a", ".", "..", "", ".git", "..b", "b.", "a b", "é", "%2F", "%41", "a?b", "a#b"];
  const more = ["a\\b", "C:", "a;b=c", "~x", "@", "\t", "x|y"];
  /** every path of up to three segments from the parts above */
  function paths(): string[] {
    const out: string[] = [];
    const all = [...parts, ...more];
    for (const x of all) {
      out.push(`/${x}`);
      for (const y of all) {
        out.push(`/${x}/${y}`);
        for (const z of ["a", ".", "..", ""]) out.push(`/${x}/${y}/${z}`);
      }
    }
    return out;
  }

  test("uriToPath: fileURLToPath's answer for every file URI, null for the rest", () => {
    const reference = (uri: string): string | null => {
      if (!/^file:/i.test(uri)) return null;
      try {
        return fileURLToPath(uri);
      } catch {
        return null;
      }
    };
    const uris = paths().flatMap((p) => [`file://${p}`, `file://host${p}`, `FILE://${p}`]);
    uris.push("file:///", "file:/a/b", "file:a", "untitled:a", "https://x/a.ts", "file://");
    for (const uri of uris) expect([uri, uriToPath(uri)]).toEqual([uri, reference(uri)]);
  });
});
