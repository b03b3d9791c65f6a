/**
 * The repository stands alone: what its code, tests and scripts cite is in the repository.
 *
 * In src/, test/ (the fixture workspaces excepted; their README counts), bench/, build.ts
 * and .ci/, comments, test names and strings carry no issue number (the tracker is not in
 * the repository), no numbered trap of an outside list, no path into a sibling `shared`
 * folder and no narration of an outside original. A document of docs/ is named by its path
 * (`docs/X.md`, or a relative link from a markdown file), and an anchor after it is a
 * heading of that document. Every `§n` cited there and in the documentation is a section
 * of docs/SPEC.md, and every relative link of the documentation reaches a file (and its
 * anchor a heading).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const REPO = join(import.meta.dir, "..", "..");
const DOCS = join(REPO, "docs");
const DOC_NAMES = readdirSync(DOCS).filter((n) => n.endsWith(".md"));

/**
 * The repository's own files under `paths` — tracked, or new and not ignored — so installed
 * dependencies (node_modules, the Python venv of test/servers) and build output never count.
 * Lock files are generated; the fixture workspaces are data the servers read (their README
 * is documentation and counts).
 */
function repositoryFiles(paths: string[]): string[] {
  const git = Bun.spawnSync(
    ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...paths],
    { cwd: REPO },
  );
  if (!git.success) throw new Error(`git ls-files failed: ${git.stderr.toString()}`);
  return [...new Set(git.stdout.toString().split("\0"))]
    .filter((f) => f !== "" && existsSync(join(REPO, f)))
    .filter((f) => !f.endsWith(".lock"))
    .filter((f) => !/^test\/fixtures\/[^/]+\//.test(f))
    .sort();
}

const SCANNED = repositoryFiles(["src", "test", "bench", "build.ts", ".ci"]);
const MARKDOWN = [
  "README.md",
  "bench/README.md",
  "test/fixtures/README.md",
  ...DOC_NAMES.map((n) => `docs/${n}`),
];
const read = (rel: string): string => readFileSync(join(REPO, rel), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown document's headings (outside code fences), duplicates numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function hasAnchor(abs: string, anchor: string): boolean {
  let anchors = anchorCache.get(abs);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(abs, "utf8"));
    anchorCache.set(abs, anchors);
  }
  return anchors.has(anchor);
}

/** What a text borrows from outside the repository, each finding with its line. */
function outsideReferences(text: string): string[] {
  const patterns: [RegExp, string][] = [
    [/\b[Ii]ssues? ?#?[0-9]+\b/, "an issue number"],
    [/\btraps? [0-9]+\b/, "a numbered trap"],
    [/\.\.\/shared\b/, "a path into a sibling shared folder"],
    [/\boriginal\s+design\b/i, "an outside original"],
  ];
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const [re, what] of patterns)
      if (re.test(line)) found.push(`${i + 1}: ${what}: ${line.trim()}`);
  });
  return found;
}

/** Mentions of a docs/ document that are not a path reaching it, or name a missing anchor. */
function badDocMentions(rel: string, text: string): string[] {
  const names = DOC_NAMES.map((n) => n.replace(/[.-]/g, "\\$&")).join("|");
  const re = new RegExp(`([\\w./-]*?)\\b(${names})(#[\\w-]+)?`, "g");
  const bad: string[] = [];
  for (const m of text.matchAll(re)) {
    const [whole, prefix = "", name = "", anchor] = m;
    const path = `${prefix}${name}`;
    const abs = path.startsWith(".") ? join(REPO, dirname(rel), path) : join(REPO, path);
    if (!prefix.endsWith("docs/") || relative(DOCS, abs) !== name)
      bad.push(`${whole}: not a path to docs/${name}`);
    else if (anchor && !hasAnchor(abs, anchor.slice(1))) bad.push(`${whole}: no such heading`);
  }
  return bad;
}

const SPEC_SECTIONS = new Set(
  [...read("docs/SPEC.md").matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]!),
);

function badSections(text: string): string[] {
  return [...text.matchAll(/§ ?(\d+(?:\.\d+)*)/g)]
    .map((m) => m[1]!.replace(/\.$/, ""))
    .filter((n) => !SPEC_SECTIONS.has(n))
    .map((n) => `§${n}: not a section of docs/SPEC.md`);
}

/** Relative links of a markdown file that reach no file, or name a missing heading. */
function badLinks(rel: string, text: string): string[] {
  const bad: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/.test(target)) continue;
    const [path = "", anchor] = target.split("#");
    const abs = path === "" ? join(REPO, rel) : join(REPO, dirname(rel), path);
    if (!existsSync(abs)) bad.push(`${target}: no such file`);
    else if (anchor && abs.endsWith(".md") && !hasAnchor(abs, anchor))
      bad.push(`${target}: no such heading`);
  }
  return bad;
}

function report(files: string[], check: (rel: string, text: string) => string[]): string[] {
  return files.flatMap((rel) => check(rel, read(rel)).map((f) => `${rel}: ${f}`));
}

describe("the checks themselves", () => {
  test("headings become GitHub's anchors", () => {
    expect(slug("Installing them (`.ci/setup-servers`)")).toBe("installing-them-cisetup-servers");
    expect(slug("emmylua_ls counts code points")).toBe("emmylua_ls-counts-code-points");
    expect(slug("`--version` wall time — p50 ≤ 15 ms")).toBe("--version-wall-time--p50--15-ms");
    expect([...anchorsOf("# A\n```\n# not a heading\n```\n## A\n### B c")]).toEqual([
      "a",
      "a-1",
      "b-c",
    ]);
  });

  test("outside references are found, ordinary words are not", () => {
    const tracker = ["iss", "ue"].join("");
    expect(outsideReferences(`fixed in ${tracker} 4\nsee ${tracker}s 3, 5`)).toHaveLength(2);
    expect(outsideReferences(`see ${["tr", "ap"].join("")} 2`)).toHaveLength(1);
    expect(outsideReferences(`in ../${["sha", "red"].join("")}/x.md`)).toHaveLength(1);
    expect(outsideReferences("an issue with seeds 1, 2: a trap for the unwary")).toEqual([]);
  });

  test("a document named without its docs/ path, or with a missing anchor, is found", () => {
    const bare = ["TOOL", "CHAIN.md"].join("");
    expect(badDocMentions("src/x.ts", `see ${bare}`)).toHaveLength(1);
    expect(badDocMentions("src/x.ts", `see docs/${bare}#the-compiled-binary-at-run-time`)).toEqual(
      [],
    );
    expect(badDocMentions("src/x.ts", `see docs/${bare}#no-such-heading`)).toHaveLength(1);
    expect(badDocMentions("test/fixtures/README.md", `[t](../../docs/${bare})`)).toEqual([]);
  });
});

describe("the repository cites only itself", () => {
  test("the scan covers the code, the tests, the benchmarks and the scripts", () => {
    for (const f of [
      "src/main.ts",
      "build.ts",
      ".ci/run",
      "bench/run.ts",
      "test/fixtures/README.md",
    ])
      expect(SCANNED).toContain(f);
    expect(SCANNED.some((f) => f.startsWith("test/fixtures/c/"))).toBe(false);
  });

  test("no issue number, numbered trap, sibling shared folder or outside original", () => {
    expect(report(SCANNED, (_, text) => outsideReferences(text))).toEqual([]);
  });

  test("no file or folder name carries an issue number", () => {
    expect(SCANNED.filter((f) => /issue[-_ ]?[0-9]/i.test(f))).toEqual([]);
  });

  test("documents of docs/ are named by path, their anchors exist", () => {
    expect(report(SCANNED, badDocMentions)).toEqual([]);
  });

  test("every § cited is a section of docs/SPEC.md", () => {
    expect(report([...SCANNED, ...MARKDOWN], (_, text) => badSections(text))).toEqual([]);
  });

  test("every relative link of the documentation reaches a file and a heading", () => {
    expect(report(MARKDOWN, badLinks)).toEqual([]);
  });
});
