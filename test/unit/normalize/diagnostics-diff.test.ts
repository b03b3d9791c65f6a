/**
 * Diagnostics across a change (SPEC §6.1): matched by file, severity, code, source, message
 * (its rendering aside: message-form.test.ts) and the text under the range, never by line;
 * snapshot ids are deterministic digests.
 */
import { describe, expect, test } from "bun:test";
import { hash } from "node:crypto";
import {
  DIGEST_BYTES,
  diffDiagnostics,
  type KeyedDiagnostics,
  keyAt,
  matchKey,
  positionsBlanked,
  SnapshotDigest,
  textUnder,
  writeTextDigest,
} from "../../../src/normalize/diagnostics-diff.ts";
import type { DiagnosticOut } from "../../../src/normalize/types.ts";
import { LineIndex } from "../../../src/text/positions.ts";
import { TimeSlices } from "../../../src/time-slice.ts";
import { range } from "../../support/normalize-context.ts";

const everywhere = () => true;

function diag(file: string, line: number, column: number, width: number, message: string) {
  const d: DiagnosticOut = {
    file,
    line,
    column,
    end_line: line,
    end_column: column + width,
    severity: "error",
    code: "E1",
    source: "test",
    message,
    channels: ["push"],
  };
  return d;
}

/** The match key of `item` against `text`. */
function keyOf(text: string, item: DiagnosticOut): string {
  const covered = textUnder(new LineIndex(text), item, "code-point");
  return matchKey(item, hash("sha256", covered, "hex"));
}

/** Keyed against `text` (one file). */
function keyed(text: string, items: DiagnosticOut[]): KeyedDiagnostics {
  const index = new LineIndex(text);
  const texts = Buffer.alloc(items.length * DIGEST_BYTES);
  items.forEach((item, i) => {
    writeTextDigest(textUnder(index, item, "code-point"), texts, i * DIGEST_BYTES);
  });
  return { items, texts };
}

/** Two keyed lists as one (files side by side). */
function joined(a: KeyedDiagnostics, b: KeyedDiagnostics): KeyedDiagnostics {
  return { items: [...a.items, ...b.items], texts: Buffer.concat([a.texts, b.texts]) };
}

/** What a diff says: the items added and removed, how many are unchanged. */
const change = (added: DiagnosticOut[], removed: DiagnosticOut[], unchanged: number) => ({
  added,
  removed,
  unchanged,
});

/** A diff with its indices as the items they point at. */
async function diffed(
  before: KeyedDiagnostics,
  after: KeyedDiagnostics,
  inScope: (file: string) => boolean = everywhere,
) {
  const d = await diffDiagnostics(before, after, inScope, new TimeSlices());
  return {
    added: d.added.map((i) => after.items[i]),
    removed: d.removed.map((i) => before.items[i]),
    unchanged: d.unchanged,
  };
}

/** The snapshot id of `items` keyed against `text`, fed as an answer feeds it. */
function snapshotId(
  files: string[],
  complete: boolean | undefined,
  text: string,
  items: DiagnosticOut[],
) {
  const digest = new SnapshotDigest(files, complete);
  for (const item of items) digest.add(JSON.stringify(item), keyOf(text, item));
  return digest.id();
}

test("a list's match keys are made of its items and the digests of their texts", () => {
  const text = "int x = bad;\n";
  const items = [diag("a.c", 1, 9, 3, "undeclared"), diag("a.c", 1, 1, 3, "type")];
  const list = keyed(text, items);
  expect(items.map((_, i) => keyAt(list, i))).toEqual(items.map((d) => keyOf(text, d)));
});

describe("textUnder", () => {
  test("the covered text, in code points; tolerant of ranges past the end", async () => {
    const index = new LineIndex("a 😀 bad\nnext\n");
    expect(textUnder(index, range(1, 5, 1, 8), "code-point")).toBe("bad");
    expect(textUnder(index, range(1, 3, 2, 3), "code-point")).toBe("😀 bad\nne");
    expect(textUnder(index, range(2, 3, 9, 1), "code-point")).toBe("xt\n");
    expect(textUnder(undefined, range(1, 1, 1, 2), "utf-16")).toBe("");
  });
});

describe("diffDiagnostics", () => {
  const before = "int x = bad;\nint y = worse;\n";

  test("a line inserted above moves diagnostics without adding or removing any", async () => {
    const old = keyed(before, [
      diag("a.c", 1, 9, 3, "undeclared"),
      diag("a.c", 2, 9, 5, "undeclared"),
    ]);
    const after = `// new comment\n${before}`;
    const now = keyed(after, [
      diag("a.c", 2, 9, 3, "undeclared"),
      diag("a.c", 3, 9, 5, "undeclared"),
    ]);
    expect(await diffed(old, now)).toEqual(change([], [], 2));
  });

  test("insert a line above an error and add one new error: exactly 1 added, 0 removed", async () => {
    const old = keyed(before, [diag("a.c", 1, 9, 3, "undeclared")]);
    const after = `\nint x = bad;\nint y = worse;\nint z = awful;\n`;
    const added = diag("a.c", 4, 9, 5, "undeclared");
    const now = keyed(after, [diag("a.c", 2, 9, 3, "undeclared"), added]);
    expect(await diffed(old, now)).toEqual(change([added], [], 1));
  });

  test("a note that moved with its diagnostic changes nothing; a note that says otherwise does", async () => {
    const withNote = (line: number, noteLine: number, says: string): DiagnosticOut => ({
      ...diag("a.c", line, 9, 3, "incomplete type"),
      related: [
        {
          file: "a.c",
          ...range(noteLine, 8, noteLine, 12),
          message: says,
        },
      ],
    });
    const old = keyed(before, [withNote(1, 2, "declared here")]);
    const now = keyed(`\n${before}`, [withNote(2, 3, "declared here")]);
    expect(await diffed(old, now)).toEqual(change([], [], 1));
    const other = keyed(`\n${before}`, [withNote(2, 3, "defined here")]);
    expect((await diffed(old, other)).unchanged).toBe(0);
  });

  test("the same message on different text is a different diagnostic; removed keep old positions", async () => {
    const oldItem = diag("a.c", 1, 9, 3, "undeclared");
    const old = keyed(before, [oldItem]);
    const after = "int x = fine;\nint y = worse;\n";
    const newItem = diag("a.c", 2, 9, 5, "undeclared");
    const now = keyed(after, [newItem]);
    expect(await diffed(old, now)).toEqual(change([newItem], [oldItem], 0));
  });

  test("a revert rendered in another order is unchanged; another problem is not", async () => {
    // tsserver after a revert: the same error, its union and members in creation order
    const text = 'const v: K = "nope";\n';
    const said = ([a, b]: [string, string]) =>
      diag(
        "a.ts",
        1,
        7,
        1,
        `Type '"nope"' is not assignable to '{ ${a}?: 1; ${b}?: 1 } | "${a}" | "${b}"'.`,
      );
    const before = await keyed(text, [said(["zeta", "alpha"])]);
    const reverted = await keyed(text, [said(["alpha", "zeta"])]);
    expect(await diffed(before, reverted)).toEqual(change([], [], 1));
    const other = said(["alpha", "beta"]);
    expect(await diffed(before, await keyed(text, [other]))).toEqual({
      added: [other],
      removed: [said(["zeta", "alpha"])],
      unchanged: 0,
    });
  });

  test("repeats pair up in order; only files in scope are compared", async () => {
    const text = "bad bad bad\n";
    const three = [1, 5, 9].map((c) => diag("a.c", 1, c, 3, "undeclared"));
    const old = joined(keyed(text, three), keyed("zzz\n", [diag("b.c", 1, 1, 3, "other")]));
    const now = keyed(text, three.slice(0, 2));
    const d = await diffed(old, now, (f) => f === "a.c");
    expect(d).toEqual(change([], [three[2] as DiagnosticOut], 2));
  });
});

describe("positionsBlanked", () => {
  test("a rendered message whose lines moved matches; other numbers stay", async () => {
    // rustc widens the gutter with the line number's width
    const at = (line: number) => {
      const pad = " ".repeat(String(line).length);
      return (
        `error[E0308]: mismatched types\n${pad}--> src/lib.rs:${line}:22\n${pad} |\n` +
        `${line} |     let total: u32 = "three";\n${pad} |   ^^^^^^^ expected \`u32\``
      );
    };
    expect(positionsBlanked(at(4))).toBe(positionsBlanked(at(12)));
    expect(positionsBlanked(at(4))).toContain("E0308");
    expect(positionsBlanked("main.c:6:19:  note: forward\ndeclaration")).toBe(
      "main.c:#: note: forward declaration",
    );
    // counts in the text are the diagnostic's, not positions
    expect(positionsBlanked("expected 2 arguments, found 3")).toBe("expected 2 arguments, found 3");
  });

  test("a moved rendered diagnostic is unchanged in a diff; a changed one is not", async () => {
    const text = 'x\ny\nlet total: u32 = "three";\n';
    const moved = `\n\n${text}`;
    const message = (line: number) => `mismatched\n --> src/lib.rs:${line}:18\n${line} | let`;
    const before = keyed(text, [diag("src/lib.rs", 3, 18, 7, message(3))]);
    const after = keyed(moved, [diag("src/lib.rs", 5, 18, 7, message(5))]);
    expect(await diffed(before, after)).toEqual(change([], [], 1));
  });
});

describe("snapshotId", () => {
  test("deterministic, and different for a different result", async () => {
    const a = [diag("a.c", 1, 3, 3, "m")];
    const id = snapshotId(["a.c"], undefined, "x bad\n", a);
    expect(id).toMatch(/^d[0-9a-f]{20}$/);
    expect(snapshotId(["a.c"], undefined, "x bad\n", [diag("a.c", 1, 3, 3, "m")])).toBe(id);
    expect(snapshotId(["a.c", "b.c"], undefined, "x bad\n", a)).not.toBe(id);
    expect(snapshotId(["a.c"], false, "x bad\n", a)).not.toBe(id);
    // same list, other text under the range: another snapshot
    expect(snapshotId(["a.c"], undefined, "x BAD\n", a)).not.toBe(id);
  });
});
