/**
 * inlay_hints, formatting and formatting_apply (SPEC §4.1, §7.3) on the real servers, through
 * the compiled bridge, each answer compared with the same server driven alone by the test's
 * own LSP client (test/parity/direct.ts: started as the bridge starts it, on a copy of the same
 * fixture). The bridge answers in UTF-16 columns, so the direct answer converts by adding 1.
 * The hints are on with the presets as they are (zero-config): a server that answers none
 * fails. formatting_apply writes exactly what the server alone would, and a second
 * `formatting` has nothing left to change; in a CRLF file it writes CRLF only, whatever
 * breaks the server's edits carry. clangd 14 offers no inlay hints, pyright neither
 * inlay hints nor formatting: ServerLacksCapability, as each says alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TextEdit } from "vscode-languageserver-protocol";
import { editedText } from "../../src/apply/validate.ts";
import { labelText } from "../../src/normalize/inlay-hints.ts";
import { indentationOf } from "../../src/text/indentation.ts";
import { startDirect } from "../parity/direct.ts";
import type { LspClient } from "../parity/lsp-client.ts";
import type { BridgeHandle } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import { fails, ok, realSuite, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  findTypescriptNative,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";
import { tempDir } from "../support/temp-dirs.ts";

interface Case {
  name: string;
  found: RealServer | null;
  /** a fresh copy of the fixture, with the file to format added */
  fixture: () => string;
  /** the file whose hints are compared */
  hints: string;
  /** the server offers no standard inlay hints (clangd 14: its own `clangd/inlayHints` only) */
  noHints?: boolean;
  /** a file the formatter changes in white space only */
  messy?: string;
  /** a file of CRLF breaks the formatter changes, writing `\n` (or no-op edits) into it */
  crlf?: string;
  /** lines whose range formatting is compared, where the server offers it */
  range?: { start_line: number; end_line: number };
  /** the direct client, before it opens a file: the server's load is over (rust-analyzer) */
  quiescent?: boolean;
  /** it publishes nothing (typescript-native answers pulls only): its requests wait for the load */
  pullsOnly?: boolean;
}

const withFile =
  (fixture: () => string, file: string, text: string, more?: (d: string) => void) => () => {
    const dir = fixture();
    writeFileSync(join(dir, file), text);
    more?.(dir);
    return dir;
  };

/** `file` written into the fixture with CRLF line breaks. */
const crlfFile = (file: string, lines: string[]) => (dir: string) =>
  writeFileSync(join(dir, file), `${lines.join("\r\n")}\r\n`);

/** The TypeScript servers' case: the ts fixture, the emoji line's hints, a file to format. */
const TYPESCRIPT = {
  fixture: withFile(
    () => copyFixture("ts"),
    "src/messy.ts",
    "export function  add(a:number,b:number):number{\nreturn a+b}\n",
    crlfFile("src/crlf.ts", ["export function inc(a: number): number {", "  return a + 1 }"]),
  ),
  hints: "src/main.ts",
  messy: "src/messy.ts",
  crlf: "src/crlf.ts",
  range: { start_line: 1, end_line: 1 },
};

const CASES: Case[] = [
  {
    name: "typescript-language-server",
    found: await findTypescriptLanguageServer(),
    ...TYPESCRIPT,
  },
  {
    name: "typescript-native",
    found: await findTypescriptNative(),
    ...TYPESCRIPT,
    pullsOnly: true,
  },
  {
    name: "gopls",
    found: await findGopls(),
    fixture: withFile(
      () => copyFixture("go"),
      "shapes/messy.go",
      "package shapes\n\nfunc  Double(x int)int{\nreturn x*2}\n",
      crlfFile("shapes/crlf.go", ["package shapes", "", "func Triple(x int) int {", "return x*3}"]),
    ),
    hints: "main.go",
    messy: "shapes/messy.go",
    crlf: "shapes/crlf.go",
  },
  {
    name: "rust-analyzer",
    found: await findRustAnalyzer(),
    fixture: withFile(
      () => copyFixture("rust"),
      "src/messy.rs",
      "pub fn double(x:u32)->u32{\nx*2}\n",
      (dir) => appendFileSync(join(dir, "src/lib.rs"), "pub mod messy;\n"),
    ),
    hints: "src/main.rs",
    messy: "src/messy.rs",
    quiescent: true,
  },
  {
    name: "clangd",
    found: await findClangd(),
    fixture: withFile(
      () => materializeCFixture(undefined, "c"),
      "messy.c",
      "int  twice(int x){\nreturn x*2;}\n",
      crlfFile("crlf.c", ["int thrice(int x){", "return x*3;}"]),
    ),
    hints: "main.c",
    noHints: true,
    messy: "messy.c",
    crlf: "crlf.c",
    range: { start_line: 2, end_line: 2 },
  },
  {
    name: "pyright",
    found: await findPyright(),
    fixture: () => copyFixture("python"),
    hints: "app.py",
  },
];

type Hint = { line: number; column: number; kind?: string; text: string };
type Edit = {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  new_text: string;
};

/** The direct answer in the bridge's shape: 1-based lines, UTF-16 columns plus one. */
function hintsOut(raw: unknown): Hint[] {
  const kinds: Record<number, string> = { 1: "type", 2: "parameter" };
  return (
    (raw ?? []) as {
      position: { line: number; character: number };
      label: unknown;
      kind?: number;
    }[]
  )
    .map((h) => {
      const kind = h.kind === undefined ? undefined : kinds[h.kind];
      return {
        line: h.position.line + 1,
        column: h.position.character + 1,
        ...(kind ? { kind } : {}),
        text: labelText(h.label) ?? "",
      };
    })
    .sort(
      (a, b) =>
        a.line - b.line ||
        a.column - b.column ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : 0) ||
        ((a.kind ?? "") < (b.kind ?? "") ? -1 : (a.kind ?? "") > (b.kind ?? "") ? 1 : 0),
    );
}

function editsOut(raw: TextEdit[] | null): Edit[] {
  return (raw ?? [])
    .map((e) => ({
      line: e.range.start.line + 1,
      column: e.range.start.character + 1,
      end_line: e.range.end.line + 1,
      end_column: e.range.end.character + 1,
      new_text: e.newText,
    }))
    .sort(
      (a, b) =>
        a.line - b.line ||
        a.column - b.column ||
        a.end_line - b.end_line ||
        a.end_column - b.end_column,
    );
}

const LANGUAGE: Record<string, string> = {
  ts: "typescript",
  go: "go",
  rs: "rust",
  c: "c",
  py: "python",
};

/**
 * Open `file` of `root` in the direct client, and wait until its server has taken it in: a
 * publish for the file (tsserver's project, gopls' packages, clangd's AST), or nothing more
 * after the load (rust-analyzer, which pushes nothing while its checks are off, and
 * typescript-native, which answers pulls only and holds its requests until its project loads).
 */
async function openDirect(client: LspClient, root: string, file: string, waitPublish: boolean) {
  const abs = join(root, file);
  const uri = pathToFileURL(abs).href;
  const text = readFileSync(abs, "utf8");
  await client.open(uri, LANGUAGE[extname(file).slice(1)] ?? "", text, 1);
  if (!waitPublish) return { uri, text };
  await client.until(() => (client.publishes.has(uri) ? true : undefined), `a publish for ${file}`);
  return { uri, text };
}

/** The server's range of whole lines, as the bridge makes it (line-range.ts). */
function linesRange(text: string, first: number, last: number) {
  const lines = text.split("\n");
  return {
    start: { line: first - 1, character: 0 },
    end: { line: last - 1, character: (lines[last - 1] ?? "").length },
  };
}

for (const c of CASES) {
  requiredUnderCI(c.name, c.found);
  describe.skipIf(!c.found)(c.name, () => {
    const suite = realSuite(c.name, c.found);
    const state: { bridge?: BridgeHandle; direct?: LspClient; dirs: string[] } = { dirs: [] };
    const bridge = () => state.bridge as BridgeHandle;
    const direct = () => state.direct as LspClient;
    const published = !c.quiescent && !c.pullsOnly;
    const bridgeDir = () => state.dirs[0] as string;
    const directDir = () => state.dirs[1] as string;

    beforeAll(async () => {
      state.dirs = [c.fixture(), c.fixture()];
      state.bridge = await startRealBridge(bridgeDir(), suite.config(), {
        bridge: {
          column_unit: "utf-16",
          mutation: "gated",
          mutation_allowlist: ["ci-gate"],
          state_dir: tempDir("theodolite-state-"),
        },
        clientName: "ci-gate",
      });
      // the bridge's server and the one driven alone load side by side
      const warm = ok(bridge(), "session_status", { start: true });
      state.direct = await startDirect(suite.config(), directDir());
      if (c.quiescent) {
        await direct().until(() => {
          const s = direct().statuses;
          return s.some((x) => !x.quiescent) && s.at(-1)?.quiescent ? true : undefined;
        }, "quiescent after the load");
      }
      await warm;
    });
    afterAll(async () => {
      await state.bridge?.close();
      await state.direct?.close();
      for (const d of state.dirs) rmSync(d, { recursive: true, force: true });
    });

    if (!c.messy) {
      test("neither inlay hints nor formatting: ServerLacksCapability, as it says alone", async () => {
        const caps = direct().initializeResult?.capabilities ?? {};
        expect(caps.inlayHintProvider ?? null).toBeNull();
        expect(caps.documentFormattingProvider ?? null).toBeNull();
        for (const tool of ["inlay_hints", "formatting"]) {
          const e = await fails(bridge(), tool, { file: c.hints });
          expect(e.code).toBe("ServerLacksCapability");
        }
      });
      return;
    }
    const messy = c.messy;

    const hintsTitle = c.noHints
      ? "inlay_hints: ServerLacksCapability, as it says alone"
      : "inlay_hints: the server's own hints, at the same places, with the presets' settings";
    test(hintsTitle, async () => {
      if (c.noHints) {
        expect(direct().initializeResult?.capabilities.inlayHintProvider ?? null).toBeNull();
        const e = await fails(bridge(), "inlay_hints", { file: c.hints });
        expect(e).toMatchObject({ code: "ServerLacksCapability" });
        return;
      }
      const { uri, text } = await openDirect(direct(), directDir(), c.hints, published);
      const raw = await direct().request("textDocument/inlayHint", {
        textDocument: { uri },
        range: linesRange(text, 1, text.split("\n").length),
      });
      const expected = hintsOut(raw);
      expect(expected.length).toBeGreaterThan(0);
      const r = await ok(bridge(), "inlay_hints", { file: c.hints });
      expect(r.hints).toEqual(expected);
      expect(r.total).toBe(expected.length);
    });

    test("formatting: the server's own edits, layout only; formatting_apply writes them", async () => {
      const { uri, text } = await openDirect(direct(), directDir(), messy, published);
      const options = { ...indentationOf(text) };
      const raw = await direct().request<TextEdit[] | null>("textDocument/formatting", {
        textDocument: { uri },
        options,
      });
      const expected = editsOut(raw);
      expect(expected.length).toBeGreaterThan(0);
      const preview = await ok(bridge(), "formatting", { file: messy });
      expect(preview).toMatchObject({
        layout_only: true,
        changes: [{ file: messy, edits: expected }],
      });

      if (c.range) {
        const rangeRaw = await direct().request<TextEdit[] | null>("textDocument/rangeFormatting", {
          textDocument: { uri },
          range: linesRange(text, c.range.start_line, c.range.end_line),
          options,
        });
        const ranged = await ok(bridge(), "formatting", { file: messy, ...c.range });
        const edits = editsOut(rangeRaw);
        expect(ranged.changes).toEqual(edits.length === 0 ? [] : [{ file: messy, edits }]);
      }

      const applied = await ok(bridge(), "formatting_apply", {
        file: messy,
        edit_set: preview.edit_set,
      });
      expect(applied.edit_set).toBe(preview.edit_set);
      const formatted = editedText(messy, text, raw ?? [], "utf-16");
      expect(formatted).not.toBe(text);
      expect(readFileSync(join(bridgeDir(), messy), "utf8")).toBe(formatted);
      const again = await ok(bridge(), "formatting", { file: messy });
      expect(again.changes).toEqual([]);
    });

    const crlf = c.crlf;
    if (crlf === undefined) return;
    test("a CRLF file: the server's edits with CRLF breaks, those that change nothing left out", async () => {
      const { uri, text } = await openDirect(direct(), directDir(), crlf, published);
      const raw = await direct().request<TextEdit[] | null>("textDocument/formatting", {
        textDocument: { uri },
        options: { ...indentationOf(text) },
      });
      const starts = [0, ...[...text.matchAll(/\r\n/g)].map((m) => (m.index ?? 0) + 2)];
      const at = (p: { line: number; character: number }) => (starts[p.line] ?? 0) + p.character;
      const fitted = (raw ?? [])
        .map((e) => ({ ...e, newText: e.newText.replace(/\r?\n/g, "\r\n") }))
        .filter((e) => text.slice(at(e.range.start), at(e.range.end)) !== e.newText);
      expect(fitted.length).toBeGreaterThan(0);
      const preview = await ok(bridge(), "formatting", { file: crlf });
      expect(preview).toMatchObject({
        layout_only: true,
        changes: [{ file: crlf, edits: editsOut(fitted) }],
      });

      await ok(bridge(), "formatting_apply", { file: crlf, edit_set: preview.edit_set });
      const written = readFileSync(join(bridgeDir(), crlf), "utf8");
      // the server's formatting, every break CRLF: none of its `\n` came through alone
      const formatted = editedText(crlf, text, raw ?? [], "utf-16");
      expect(written).toBe(formatted.replace(/\r?\n/g, "\r\n"));
      expect(written.replaceAll("\r\n", "")).not.toContain("\n");
      const again = await ok(bridge(), "formatting", { file: crlf });
      expect(again.changes).toEqual([]);
    });
  });
}
