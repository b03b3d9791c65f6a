/**
 * Linear-time text handling (SPEC §8): 1 MiB adversarial lines — runs of white space
 * between a code fence and a refused character, root spellings over and over, escapes,
 * dot segments, carriage returns, brackets, quotes and `|` for a message's matched form —
 * through every normalizer of server text, the error
 * texts' path rewriting, URI parsing, the stderr lines and the discovery's `.gitignore`.
 * A backtracking pattern over such a line takes minutes; linear handling, milliseconds.
 * The bound is generous (a loaded machine), the gap it guards is four orders of magnitude.
 */
import { describe, expect, test } from "bun:test";
import { hash } from "node:crypto";
import type { DocumentSymbol } from "vscode-languageserver-protocol";
import { gitignoreMatcher } from "../../src/discovery/ignore.ts";
import { normalizeCalls } from "../../src/normalize/call-hierarchy.ts";
import { summarizeCodeAction } from "../../src/normalize/code-actions.ts";
import { normalizeDiagnostics } from "../../src/normalize/diagnostics.ts";
import { matchKey } from "../../src/normalize/diagnostics-diff.ts";
import { isFenceLine, normalizeHover } from "../../src/normalize/hover.ts";
import { normalizeLocations } from "../../src/normalize/locations.ts";
import { findSymbols } from "../../src/normalize/symbol-path.ts";
import {
  normalizeDocumentSymbols,
  normalizeWorkspaceSymbols,
} from "../../src/normalize/symbols.ts";
import { summarize } from "../../src/normalize/too-large.ts";
import type { DiagnosticOut } from "../../src/normalize/types.ts";
import { flattenWorkspaceEdit, normalizeFileEdits } from "../../src/normalize/workspace-edit.ts";
import { StderrCollector } from "../../src/process/stderr-collector.ts";
import { TimeSlices } from "../../src/time-slice.ts";
import { relativizeEnvelope } from "../../src/workspace/relative-text.ts";
import { uriToPath } from "../../src/workspace/uri.ts";
import { fileUri, fixtureContext, ROOT, r } from "../support/normalize-context.ts";

const MIB = 1 << 20;
/** Per normalizer and line: linear work on 1 MiB is milliseconds; quadratic, minutes. */
const BOUND_MS = 1500;

const fill = (unit: string, then = "") => unit.repeat(Math.ceil(MIB / unit.length)) + then;

/** The lines: each what some pattern over untrusted text would backtrack on. */
const LINES: Record<string, string> = {
  "fence, spaces, one refused character": `\`\`\`${fill(" ", "!")}`,
  "tilde fence, tabs, an info string with a space": `~~~${fill("\t", "ts x")}`,
  "spaces between two words": `a${fill(" ", "b")}`,
  "fences over and over": fill("```"),
  "carriage returns": fill("\r", "x"),
  "root spellings over and over": fill(`${ROOT}x`),
  "a root path without end": `${ROOT}/${fill("a")}`,
  "a root URI without end": `file://${ROOT}/${fill("%2")}`,
  "dot segments": `file://${fill("/./")}`,
  "backslashes then a space": fill("\\", " "),
  "escaped quotes and brackets": fill('\\"[{'),
  "dotted names": fill("a."),
  "positions over and over": fill("a:1"),
  "a position whose digits never end": `a:${fill("1", "x")}`,
  "a gutter whose digits never end": `${fill(" ")}${fill("1", " x")}`,
  "members opened without end": fill("{a;b|"),
  "one set of a million members": `{${fill("ab;")}}`,
  "a quoted union without end": `'${fill("a | ")}`,
  "quotes, angles and closers over and over": fill("'\"`a<{‘“)]}>’”"),
  "nesting closed all at once": `${fill("({[")}|${fill(")}]")}`,
};

async function within(what: string, run: () => unknown): Promise<void> {
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  expect(ms, `${what}: ${ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
}

describe.each(Object.entries(LINES))("a 1 MiB line: %s", (_name, line) => {
  // the same line as a file's text, so range conversion walks it too
  const { ctx } = fixtureContext({ "a.ts": `${line}\nsecond line\n` });
  const uri = fileUri("a.ts");
  const end = r(0, line.length - 1, 1, 3);

  test("hover, in every content form", async () => {
    await within("hover", () => {
      normalizeHover({ contents: line, range: end }, uri, ctx);
      normalizeHover({ contents: { kind: "markdown", value: `${line}\n${line}` } }, uri, ctx);
      normalizeHover({ contents: [line, { language: "ts", value: line }] }, uri, ctx);
      isFenceLine(line);
    });
  });

  test("diagnostics and their match keys", async () => {
    await within("diagnostics", async () => {
      const d = { range: end, message: line, source: line, code: line, severity: 1 as const };
      const out = await normalizeDiagnostics(uri, [d], [d], ctx, new TimeSlices());
      matchKey(out[0] as DiagnosticOut, hash("sha256", line, "hex"));
    });
  });

  test("locations, symbols and calls naming the line", async () => {
    await within("locations", () => {
      normalizeLocations(
        [
          { uri, range: end },
          { uri: line, range: end },
        ],
        ctx,
      );
      const sym = { name: line, detail: line, kind: 12 as const, range: end, selectionRange: end };
      const tree = normalizeDocumentSymbols(
        [{ ...sym, children: [sym] }] as DocumentSymbol[],
        uri,
        ctx,
      );
      findSymbols(tree, line);
      normalizeWorkspaceSymbols(
        [{ name: line, kind: 12, containerName: line, location: { uri, range: end } }],
        ctx,
      );
      const item = { name: line, kind: 12, uri, range: end, selectionRange: end };
      normalizeCalls([{ from: item, fromRanges: [end] }], "incoming", uri, ctx);
    });
  });

  test("code actions, edits and result summaries", async () => {
    await within("edits", () => {
      summarizeCodeAction({ title: line, kind: line, edit: { changes: {} } });
      const files = flattenWorkspaceEdit({ changes: { [uri]: [{ range: end, newText: line }] } });
      normalizeFileEdits(files, ctx);
      summarize([{ file: line }, { file: line }]);
    });
  });

  test("paths in error texts, URIs, stderr lines, a .gitignore", async () => {
    await within("paths", () => {
      relativizeEnvelope(
        { code: "Internal", message: line, hint: line, details: { a: [line] } },
        ROOT,
      );
      uriToPath(line);
      uriToPath(`file://${line}`);
      const stderr = new StderrCollector();
      stderr.push(line);
      stderr.end();
      gitignoreMatcher(`${line}\n`)("a/b", true);
    });
  });
});
