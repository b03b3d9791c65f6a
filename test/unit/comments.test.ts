/**
 * Comments in src/ say what and why, briefly (docs/STYLE.md): a file header of at most 15
 * lines of text, a comment inside code of at most 8, and no measurement — figures belong in
 * docs/PERFORMANCE.md. A measurement is a quantity with a unit of time, size or share that
 * is a decimal, a range or an arrow between two values, or any microsecond or percentage.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");
const HEADER_MAX = 15;
const INNER_MAX = 8;
const UNIT = "(?:µs|us|ms|s|MB|KB|GB|MiB|KiB|%)";
const MEASUREMENT = new RegExp(
  [
    String.raw`\d[\d.,]*\s?(?:–|→)\s?\d[\d.,]*\s?${UNIT}(?![\w])`,
    String.raw`\d+\.\d+\s?${UNIT}(?![\w])`,
    String.raw`\d+\s?(?:µs|%)`,
  ].join("|"),
);

interface Comment {
  file: string;
  line: number;
  /** lines of text (delimiter-only lines of a block not counted) */
  length: number;
  header: boolean;
  text: string[];
}

/** Every comment of a source text: `/* … *\/` blocks and runs of `//` lines. */
function commentsOf(file: string, source: string): Comment[] {
  const lines = source.split("\n");
  const out: Comment[] = [];
  let beforeCode = true;
  for (let i = 0; i < lines.length; i++) {
    const t = (lines[i] as string).trim();
    if (t.startsWith("/*")) {
      const start = i;
      while (i < lines.length - 1 && !(lines[i] as string).includes("*/")) i++;
      const text = lines.slice(start, i + 1);
      const length = text.filter((l) => !/^\s*\/?\*+\/?\s*$/.test(l)).length;
      out.push({ file, line: start + 1, length, header: beforeCode && start === 0, text });
      beforeCode = false;
    } else if (t.startsWith("//")) {
      const start = i;
      while (i + 1 < lines.length && (lines[i + 1] as string).trim().startsWith("//")) i++;
      const text = lines.slice(start, i + 1);
      out.push({ file, line: start + 1, length: text.length, header: false, text });
      beforeCode = false;
    } else {
      const at = (lines[i] as string).indexOf("// ");
      if (at > 0) {
        const text = [(lines[i] as string).slice(at)];
        out.push({ file, line: i + 1, length: 1, header: false, text });
      }
      if (t !== "") beforeCode = false;
    }
  }
  return out;
}

const files = [...new Bun.Glob("**/*.ts").scanSync({ cwd: SRC })].sort();
const comments = files.flatMap((f) => commentsOf(f, readFileSync(join(SRC, f), "utf8")));

test("the scan finds headers and comments inside code", () => {
  expect(comments.filter((c) => c.header).length).toBeGreaterThan(files.length / 2);
  expect(comments.filter((c) => !c.header).length).toBeGreaterThan(files.length);
  const sample = commentsOf("x.ts", "/**\n * a\n * b\n */\nconst x = 1; // c\n// d\n// e\n");
  expect(sample.map((c) => [c.line, c.length, c.header])).toEqual([
    [1, 2, true],
    [5, 1, false],
    [6, 2, false],
  ]);
});

test(`file headers are at most ${HEADER_MAX} lines, comments inside code at most ${INNER_MAX}`, () => {
  const long = comments
    .filter((c) => c.length > (c.header ? HEADER_MAX : INNER_MAX))
    .map((c) => `${c.file}:${c.line} (${c.length} lines)`);
  expect(long).toEqual([]);
});

test("no comment carries a measurement (they go to docs/PERFORMANCE.md)", () => {
  expect(MEASUREMENT.test("601 locations took 0.8 ms")).toBe(true);
  expect(MEASUREMENT.test("toLoc 215–223 → 188–191 µs")).toBe(true);
  expect(MEASUREMENT.test("5–13 % of the bridge's CPU")).toBe(true);
  expect(MEASUREMENT.test("at most 8 MiB per message")).toBe(false);
  const measured = comments.flatMap((c) =>
    c.text.filter((l) => MEASUREMENT.test(l)).map((l) => `${c.file}:${c.line}: ${l.trim()}`),
  );
  expect(measured).toEqual([]);
});
