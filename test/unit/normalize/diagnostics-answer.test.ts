/**
 * A diagnostics answer measured item by item (SPEC §6.1, §8.2): reports in canonical order
 * without a global sort, each item's size and match key, snapshot ids equal to the digest
 * of the canonical result the bridge hashed whole before (pinned below), and answers equal
 * to the result serialized and capped whole — the same bytes, the same ResultTooLarge.
 */
import { describe, expect, test } from "bun:test";
import { hash } from "node:crypto";
import type { BridgeError } from "../../../src/errors.ts";
import { enforceSizeCap } from "../../../src/normalize/cap.ts";
import * as answer from "../../../src/normalize/diagnostics-answer.ts";
import {
  DIGEST_BYTES,
  diffDiagnostics,
  keyAt,
  matchKey,
  textUnder,
} from "../../../src/normalize/diagnostics-diff.ts";
import { compareDiagnostic } from "../../../src/normalize/order.ts";
import { page } from "../../../src/normalize/paging.ts";
import type { DiagnosticOut } from "../../../src/normalize/types.ts";
import { LineIndex } from "../../../src/text/positions.ts";
import { TimeSlices } from "../../../src/time-slice.ts";
import { range } from "../../support/normalize-context.ts";
import { Prng } from "../../support/prng.ts";

const TEXT = "int x = bad; // ünïcode 😀\nint y = worse;\n";

/** Items of every shape: both channels, notes (one on a non-file URI), a non-file item. */
const ITEMS: DiagnosticOut[] = [
  {
    file: "a.c",
    ...range(1, 9, 1, 12),
    severity: "error",
    code: "E1",
    source: "clang",
    message: "use of undeclared 'bad'",
    channels: ["pull", "push"],
  },
  {
    file: "a.c",
    ...range(1, 17, 2, 4),
    severity: "warning",
    message: 'a.c:1:17: spans "lines"\n  1 | x',
    related: [
      {
        file: "b.h",
        ...range(3, 1, 3, 5),
        message: "declared here at b.h:3:1",
      },
      { uri: "untitled:x", line: 1, column: 1, end_line: 1, end_column: 1, message: "" },
    ],
    channels: ["push"],
  },
  {
    uri: "untitled:y",
    ...range(1, 1, 1, 2),
    severity: "hint",
    source: "s",
    message: "😀 non-file",
    channels: ["pull"],
  },
];

/** The text a report's items cover: TEXT for a.c, nothing for a URI. */
function textOf(item: DiagnosticOut): string {
  return "file" in item ? textUnder(new LineIndex(TEXT), item, "code-point") : "";
}

async function report(items: DiagnosticOut[]): Promise<answer.ReportItems> {
  const [first] = items;
  const target = first !== undefined && "uri" in first ? { uri: first.uri } : { file: "a.c" };
  return { target, items, texts: await answer.textDigests(items, textOf, new TimeSlices()) };
}

async function measured(files: string[], complete: boolean | undefined, items: DiagnosticOut[]) {
  const reports = [
    await report(items.filter((i) => "uri" in i)),
    await report(items.filter((i) => "file" in i)),
  ];
  return answer.measureDiagnostics(
    files,
    complete,
    await answer.canonicalOrder(reports, new TimeSlices()),
    new TimeSlices(),
  );
}

describe("measureDiagnostics", () => {
  test("snapshot ids are the digests of the canonical result, keys and all", async () => {
    // pinned: a change to how diagnostics are matched (their keys) changes these too
    expect((await measured(["a.c", "untitled:y"], undefined, ITEMS)).snapshot).toBe(
      "d1a15dadf2aadb15064fa",
    );
    expect((await measured(["a.c", "untitled:y"], true, ITEMS)).snapshot).toBe(
      "d51616329a8178bb12fe4",
    );
    expect((await measured(["a.c"], false, ITEMS.slice(0, 2))).snapshot).toBe(
      "d087a18d8f8d334b1e4b1",
    );
    expect((await measured([], undefined, [])).snapshot).toBe("dc6c77ef35d52c27a0657");
  });

  test("each item's JSON size in UTF-8 bytes; its match key from the digest of its text", async () => {
    const m = await measured(["a.c", "untitled:y"], undefined, ITEMS);
    expect(m.keyed.items).toEqual(ITEMS);
    expect([...m.sizes]).toEqual(ITEMS.map((i) => Buffer.byteLength(JSON.stringify(i))));
    ITEMS.forEach((item, i) => {
      expect(keyAt(m.keyed, i)).toBe(matchKey(item, hash("sha256", textOf(item), "hex")));
    });
  });
});

describe("canonicalOrder", () => {
  const at = (file: string, line: number, message: string): DiagnosticOut => ({
    file,
    line,
    column: 1,
    end_line: line,
    end_column: 2,
    severity: "error",
    message,
    channels: ["push"],
  });
  const digests = (items: DiagnosticOut[], tag: number) => {
    const texts = Buffer.alloc(items.length * DIGEST_BYTES);
    items.forEach((_, i) => {
      texts.fill(tag + i, i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
    });
    return texts;
  };

  test("the order of one sort over every item; a file two servers reported is merged", async () => {
    const b = [at("b.c", 1, "x"), at("b.c", 3, "y")];
    const a1 = [at("a.c", 2, "m"), at("a.c", 5, "m")];
    const a2 = [at("a.c", 1, "n"), at("a.c", 2, "m"), at("a.c", 9, "n")];
    const reports: answer.ReportItems[] = [
      { target: { file: "b.c" }, items: b, texts: digests(b, 10) },
      { target: { file: "a.c" }, items: a1, texts: digests(a1, 20) },
      { target: { file: "a.c" }, items: [], texts: Buffer.alloc(0) },
      { target: { file: "a.c" }, items: a2, texts: digests(a2, 30) },
    ];
    const out = await answer.canonicalOrder(reports, new TimeSlices());
    const all = [...b, ...a1, ...a2];
    expect(out.items).toEqual([...all].sort(compareDiagnostic));
    // equal items keep their report order, each with its own text digest
    expect(out.items[1]).toBe(a1[0] as DiagnosticOut);
    expect(out.items[2]).toBe(a2[1] as DiagnosticOut);
    const tags = out.items.map((_, i) => out.texts[i * DIGEST_BYTES]);
    expect(tags).toEqual([30, 20, 31, 21, 32, 10, 11]);
  });

  test("one report is the order as it is", async () => {
    const one: answer.ReportItems = {
      target: { file: "a.c" },
      items: [at("a.c", 1, "m")],
      texts: digests([at("a.c", 1, "m")], 1),
    };
    expect(await answer.canonicalOrder([one], new TimeSlices())).toBe(one);
    expect((await answer.canonicalOrder([], new TimeSlices())).items).toEqual([]);
  });
});

/** The outcome of an answer: its JSON, or ResultTooLarge's text and details. */
async function outcome(f: () => string | Promise<string>) {
  try {
    return { json: await f() };
  } catch (e) {
    const err = e as BridgeError;
    return { code: err.code, message: err.message, hint: err.hint, details: err.details };
  }
}

describe("answers measured item by item are the answers capped whole", () => {
  const SEVERITIES = ["error", "warning", "information", "hint"] as const;
  /** Diagnostics in canonical order over a few files, of random sizes and characters. */
  function randomItems(r: Prng, n: number): DiagnosticOut[] {
    const items: DiagnosticOut[] = Array.from({ length: n }, () => ({
      file: r.pick(["a.c", "b.c", "ü/c.c"]),
      line: r.int(1, 5),
      column: r.int(1, 9),
      end_line: 5,
      end_column: 9,
      severity: r.pick(SEVERITIES),
      message: r.pick(["m", "ünïcode 😀", 'a "quoted" \\ one', "x".repeat(r.int(0, 300))]),
      channels: ["push"],
    }));
    return items.sort(compareDiagnostic);
  }
  async function keyed(items: DiagnosticOut[]) {
    const texts = await answer.textDigests(items, (i) => i.message.slice(0, 3), new TimeSlices());
    return { items, texts };
  }
  const fields = (snapshot: string) => ({
    files: ["a.c", "b.c", "ü/c.c"],
    complete: true,
    snapshot,
  });

  test("a page: the same JSON, or the same ResultTooLarge (limit, summary)", async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const r = new Prng(seed);
      const items = randomItems(r, r.int(0, 40));
      const m = await answer.measureDiagnostics(
        ["a.c"],
        true,
        await keyed(items),
        new TimeSlices(),
      );
      const caps = { maxBytes: r.pick([300, 1200, 4000, 262_144]), maxLimit: r.pick([1, 4, 200]) };
      const paging = {
        limit: r.chance(0.5) ? r.int(1, caps.maxLimit) : undefined,
        offset: r.int(0, 8),
      };
      const p = page(items, paging);
      const whole: Record<string, unknown> = { diagnostics: p.items, total: p.total };
      if (p.next_offset !== undefined) whole.next_offset = p.next_offset;
      Object.assign(whole, fields(m.snapshot));
      const help = {
        pages: { key: "diagnostics", items, offset: paging.offset },
        maxLimit: caps.maxLimit,
      };
      expect(
        await outcome(() => answer.pagedAnswer(m, fields(m.snapshot), paging, caps).json),
      ).toEqual(await outcome(() => enforceSizeCap(whole, p.items.length, caps.maxBytes, help)));
    }
  });

  test("what changed: the same JSON, or the same ResultTooLarge (summary per file)", async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const r = new Prng(seed);
      const before = await keyed(randomItems(r, r.int(0, 30)));
      const after = await keyed(
        [...before.items.filter(() => r.chance(0.6)), ...randomItems(r, r.int(0, 10))].sort(
          compareDiagnostic,
        ),
      );
      const m = await answer.measureDiagnostics(["a.c"], true, after, new TimeSlices());
      const maxBytes = r.pick([300, 1200, 4000, 262_144]);
      const inScope = (f: string) => f !== "b.c";
      const diff = await diffDiagnostics(before, after, inScope, new TimeSlices());
      const added = diff.added.map((i) => after.items[i]);
      const removed = diff.removed.map((i) => before.items[i]);
      const whole = { added, removed, unchanged: diff.unchanged, ...fields(m.snapshot) };
      const changed = [...added, ...removed];
      const help = { summaryItems: changed, maxLimit: 200 };
      const since = (all: boolean) =>
        outcome(async () => {
          const f = fields(m.snapshot);
          const slices = new TimeSlices();
          return (await answer.sinceAnswer(before, m, f, inScope, maxBytes, slices, all)).json;
        });
      expect(await since(false)).toEqual(
        await outcome(() => enforceSizeCap(whole, changed.length, maxBytes, help)),
      );
      // a preview's answer (SPEC §6.2): every current item first, then what changed
      const all = after.items;
      const preview = { diagnostics: all, total: all.length, ...whole };
      const listed = [...all, ...changed];
      const previewHelp = { summaryItems: listed, maxLimit: 200 };
      expect(await since(true)).toEqual(
        await outcome(() => enforceSizeCap(preview, listed.length, maxBytes, previewHelp)),
      );
    }
  });
});
