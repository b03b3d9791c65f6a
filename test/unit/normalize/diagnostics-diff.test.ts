/**
 * Diagnostics across a change (SPEC §6.1): matched by file, severity, code, source, message
 * (its rendering aside: message-form.test.ts) and the text under the range, never by line;
 * snapshot ids are deterministic digests.
 */
import { describe, expect, test } from "bun:test";
import {
  diffDiagnostics,
  type KeyedDiagnostic,
  matchKey,
  positionsBlanked,
  snapshotId,
  textUnder,
} from "../../../src/normalize/diagnostics-diff.ts";
import type { DiagnosticOut } from "../../../src/normalize/types.ts";
import { LineIndex } from "../../../src/text/positions.ts";

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

/** Keyed against `text` (one file). */
function keyed(text: string, items: DiagnosticOut[]): KeyedDiagnostic[] {
  const index = new LineIndex(text);
  return items.map((item) => ({ item, key: matchKey(item, textUnder(index, item, "code-point")) }));
}

const everywhere = () => true;

describe("textUnder", () => {
  test("the covered text, in code points; tolerant of ranges past the end", () => {
    const index = new LineIndex("a 😀 bad\nnext\n");
    expect(textUnder(index, { line: 1, column: 5, end_line: 1, end_column: 8 }, "code-point")).toBe(
      "bad",
    );
    expect(textUnder(index, { line: 1, column: 3, end_line: 2, end_column: 3 }, "code-point")).toBe(
      "😀 bad\nne",
    );
    expect(textUnder(index, { line: 2, column: 3, end_line: 9, end_column: 1 }, "code-point")).toBe(
      "xt\n",
    );
    expect(textUnder(undefined, { line: 1, column: 1, end_line: 1, end_column: 2 }, "utf-16")).toBe(
      "",
    );
  });
});

describe("diffDiagnostics", () => {
  const before = "int x = bad;\nint y = worse;\n";

  test("a line inserted above moves diagnostics without adding or removing any", () => {
    const old = keyed(before, [
      diag("a.c", 1, 9, 3, "undeclared"),
      diag("a.c", 2, 9, 5, "undeclared"),
    ]);
    const after = `// new comment\n${before}`;
    const now = keyed(after, [
      diag("a.c", 2, 9, 3, "undeclared"),
      diag("a.c", 3, 9, 5, "undeclared"),
    ]);
    expect(diffDiagnostics(old, now, everywhere)).toEqual({ added: [], removed: [], unchanged: 2 });
  });

  test("insert a line above an error and add one new error: exactly 1 added, 0 removed", () => {
    const old = keyed(before, [diag("a.c", 1, 9, 3, "undeclared")]);
    const after = `\nint x = bad;\nint y = worse;\nint z = awful;\n`;
    const added = diag("a.c", 4, 9, 5, "undeclared");
    const now = keyed(after, [diag("a.c", 2, 9, 3, "undeclared"), added]);
    expect(diffDiagnostics(old, now, everywhere)).toEqual({
      added: [added],
      removed: [],
      unchanged: 1,
    });
  });

  test("a note that moved with its diagnostic changes nothing; a note that says otherwise does", () => {
    const withNote = (line: number, noteLine: number, says: string): DiagnosticOut => ({
      ...diag("a.c", line, 9, 3, "incomplete type"),
      related: [
        {
          file: "a.c",
          line: noteLine,
          column: 8,
          end_line: noteLine,
          end_column: 12,
          message: says,
        },
      ],
    });
    const old = keyed(before, [withNote(1, 2, "declared here")]);
    const now = keyed(`\n${before}`, [withNote(2, 3, "declared here")]);
    expect(diffDiagnostics(old, now, everywhere)).toEqual({ added: [], removed: [], unchanged: 1 });
    const other = keyed(`\n${before}`, [withNote(2, 3, "defined here")]);
    expect(diffDiagnostics(old, other, everywhere).unchanged).toBe(0);
  });

  test("the same message on different text is a different diagnostic; removed keep old positions", () => {
    const oldItem = diag("a.c", 1, 9, 3, "undeclared");
    const old = keyed(before, [oldItem]);
    const after = "int x = fine;\nint y = worse;\n";
    const newItem = diag("a.c", 2, 9, 5, "undeclared");
    const now = keyed(after, [newItem]);
    expect(diffDiagnostics(old, now, everywhere)).toEqual({
      added: [newItem],
      removed: [oldItem],
      unchanged: 0,
    });
  });

  test("a revert rendered in another order is unchanged; another problem is not", () => {
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
    const before = keyed(text, [said(["zeta", "alpha"])]);
    const reverted = keyed(text, [said(["alpha", "zeta"])]);
    expect(diffDiagnostics(before, reverted, everywhere)).toEqual({
      added: [],
      removed: [],
      unchanged: 1,
    });
    const other = said(["alpha", "beta"]);
    expect(diffDiagnostics(before, keyed(text, [other]), everywhere)).toEqual({
      added: [other],
      removed: [said(["zeta", "alpha"])],
      unchanged: 0,
    });
  });

  test("repeats pair up in order; only files in scope are compared", () => {
    const text = "bad bad bad\n";
    const three = [1, 5, 9].map((c) => diag("a.c", 1, c, 3, "undeclared"));
    const old = [...keyed(text, three), ...keyed("zzz\n", [diag("b.c", 1, 1, 3, "other")])];
    const now = keyed(text, three.slice(0, 2));
    const d = diffDiagnostics(old, now, (f) => f === "a.c");
    expect(d).toEqual({ added: [], removed: [three[2] as DiagnosticOut], unchanged: 2 });
  });
});

describe("positionsBlanked", () => {
  test("a rendered message whose lines moved matches; other numbers stay", () => {
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

  test("a moved rendered diagnostic is unchanged in a diff; a changed one is not", () => {
    const text = 'x\ny\nlet total: u32 = "three";\n';
    const moved = `\n\n${text}`;
    const message = (line: number) => `mismatched\n --> src/lib.rs:${line}:18\n${line} | let`;
    const before = keyed(text, [diag("src/lib.rs", 3, 18, 7, message(3))]);
    const after = keyed(moved, [diag("src/lib.rs", 5, 18, 7, message(5))]);
    const d = diffDiagnostics(before, after, everywhere);
    expect({ added: d.added.length, removed: d.removed.length, unchanged: d.unchanged }).toEqual({
      added: 0,
      removed: 0,
      unchanged: 1,
    });
  });
});

describe("snapshotId", () => {
  test("deterministic, and different for a different result", () => {
    const a = keyed("x bad\n", [diag("a.c", 1, 3, 3, "m")]);
    const id = snapshotId(["a.c"], undefined, a);
    expect(id).toMatch(/^d[0-9a-f]{20}$/);
    expect(snapshotId(["a.c"], undefined, keyed("x bad\n", [diag("a.c", 1, 3, 3, "m")]))).toBe(id);
    expect(snapshotId(["a.c", "b.c"], undefined, a)).not.toBe(id);
    expect(snapshotId(["a.c"], false, a)).not.toBe(id);
    // same list, other text under the range: another snapshot
    expect(snapshotId(["a.c"], undefined, keyed("x BAD\n", [diag("a.c", 1, 3, 3, "m")]))).not.toBe(
      id,
    );
  });
});
