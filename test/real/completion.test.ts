/**
 * completion and signature_help (SPEC §4.1, §4.3) on the real servers, each answer compared
 * with the same server driven alone by the test's own LSP client (test/parity/direct.ts:
 * the same binary, args, environment and client capabilities, UTF-16 positions; the bridge
 * runs with column_unit = "utf-16", so positions compare one to one). Completion at a member
 * access (`obj.`), every page of it, against the direct answer's labels, kinds and insert
 * texts in the same order; the first items resolved for their documentation as the server
 * resolves them alone; signature help inside a call's arguments (the emoji lines where the
 * fixtures have one). One bridge and one direct server per language, side by side.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { completionKindName } from "../../src/normalize/completion.ts";
import { snippetToText } from "../../src/normalize/snippet.ts";
import { awaitLoaded, openDirect, type SettlePlan, startDirect } from "../parity/direct.ts";
import type { LspClient } from "../parity/lsp-client.ts";
import type { BridgeHandle } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import { ok, realSuite, requiredServer, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";

/** A position right after `after` on a line (1-based line) of a file. */
interface Spot {
  file: string;
  line: number;
  after: string;
}

interface Case {
  name: string;
  find: () => Promise<RealServer | null>;
  fixture: () => string;
  /** what the direct side awaits before opening files (the bridge has its readiness rules) */
  plan: SettlePlan;
  /** after opening, wait for a publish for the file first (clangd builds its preamble) */
  publishFirst?: boolean;
  member: Spot;
  /** labels the member completion must hold */
  members: string[];
  call: Spot;
  /** what the active signature's label holds */
  signature: string;
}

const CASES: Case[] = [
  {
    name: "typescript-language-server",
    find: findTypescriptLanguageServer,
    fixture: () => copyFixture("ts"),
    plan: {},
    member: { file: "src/shape.ts", line: 15, after: "sum + shape." },
    members: ["area"],
    call: { file: "src/main.ts", line: 4, after: "totalArea(" },
    signature: "totalArea(shapes: readonly Shape[]): number",
  },
  {
    name: "pyright",
    find: findPyright,
    fixture: () => copyFixture("python"),
    plan: { log: /Found \d+ source file/ },
    member: { file: "app.py", line: 5, after: "sum(c." },
    members: ["area", "radius"],
    call: { file: "app.py", line: 9, after: "total_area(" },
    signature: "(circles: list[Circle]) -> float",
  },
  {
    name: "gopls",
    find: findGopls,
    fixture: () => copyFixture("go"),
    plan: { loaded: /Setting up workspace/ },
    member: { file: "shapes/shapes.go", line: 24, after: "total += s." },
    members: ["Area"],
    call: { file: "main.go", line: 11, after: "shapes.TotalArea(" },
    signature: "TotalArea(all []shapes.Shape) int",
  },
  {
    name: "rust-analyzer",
    find: findRustAnalyzer,
    fixture: () => copyFixture("rust"),
    plan: { quiescent: true },
    // a field access: after `r.` in `r.area()` it offers methods only (a method call)
    member: { file: "src/shapes.rs", line: 14, after: "        self." },
    members: ["width", "height", "area"],
    call: { file: "src/main.rs", line: 6, after: "total_area(" },
    signature: "fn total_area(rects: &[Rect]) -> u32",
  },
  {
    name: "clangd",
    find: findClangd,
    fixture: () => materializeCFixture(undefined, "c"),
    plan: {},
    publishFirst: true,
    member: { file: "util.c", line: 6, after: "absolute(a." },
    members: ["x", "y"],
    call: { file: "main.c", line: 6, after: "manhattan(" },
    signature: "manhattan(struct point a, struct point b)",
  },
];

/** The spot's 0-based UTF-16 character (JavaScript indexes count UTF-16 units). */
function character(root: string, spot: Spot): number {
  const text = readFileSync(join(root, spot.file), "utf8").split("\n")[spot.line - 1] ?? "";
  const at = text.indexOf(spot.after);
  if (at < 0) throw new Error(`${spot.after} is not on ${spot.file}:${spot.line}`);
  return at + spot.after.length;
}

type Raw = Record<string, unknown>;

/** A direct completion answer as [label, kind, insert], in the order SPEC §4.3 gives. */
function directItems(answer: unknown): { items: string[][]; incomplete: boolean; raw: Raw[] } {
  const list = Array.isArray(answer) ? { items: answer } : ((answer ?? { items: [] }) as Raw);
  const defaults = (list.itemDefaults ?? {}) as Raw;
  const rows = (list.items as Raw[]).map((item) => {
    const edit = item.textEdit as Raw | undefined;
    let insert = (edit?.newText ?? item.insertText ?? item.label) as string;
    if (edit === undefined && defaults.editRange !== undefined) {
      insert = (item.textEditText ?? item.insertText ?? item.label) as string;
    }
    if ((item.insertTextFormat ?? defaults.insertTextFormat) === 2) insert = snippetToText(insert);
    const label = item.label as string;
    const kind = completionKindName(item.kind) ?? "";
    return { key: (item.sortText ?? label) as string, row: [label, kind, insert], item };
  });
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort(
    (a, b) =>
      cmp(a.key, b.key) ||
      cmp(a.row[0] as string, b.row[0] as string) ||
      cmp(a.row[1] as string, b.row[1] as string) ||
      cmp(a.row[2] as string, b.row[2] as string),
  );
  return {
    items: rows.map((r) => r.row),
    incomplete: list.isIncomplete === true,
    raw: rows.map((r) => r.item),
  };
}

interface BridgeItem {
  label: string;
  kind?: string;
  insert: string;
  documentation?: string;
}

/** Every page of the bridge's completion at `spot`. */
async function bridgeItems(bridge: BridgeHandle, spot: Spot, column: number) {
  const items: BridgeItem[] = [];
  let offset: number | undefined = 0;
  let incomplete = false;
  while (offset !== undefined) {
    const r = await ok(bridge, "completion", {
      file: spot.file,
      line: spot.line,
      column,
      limit: 100,
      offset,
    });
    items.push(...(r.items as BridgeItem[]));
    incomplete = r.is_incomplete as boolean;
    offset = r.next_offset as number | undefined;
  }
  return { items, incomplete };
}

/** A signature help answer as the labels and indexes SPEC §4.3 gives (LSP's defaults). */
function directSignatures(answer: unknown) {
  const help = (answer ?? { signatures: [] }) as Raw;
  const sigs = help.signatures as Raw[];
  const signatures = sigs.map((s) => ({
    label: s.label as string,
    parameters: ((s.parameters ?? []) as Raw[]).map((p) =>
      typeof p.label === "string"
        ? p.label
        : (s.label as string).slice(...(p.label as [number, number])),
    ),
  }));
  const active = (help.activeSignature as number | undefined) ?? 0;
  const sig = sigs[active];
  const param = (sig?.activeParameter ?? help.activeParameter ?? 0) as number | null;
  const count = signatures[active]?.parameters.length ?? 0;
  return {
    signatures,
    active_signature: signatures.length > 0 ? active : undefined,
    active_parameter: param !== null && param < count ? param : undefined,
  };
}

/** Whether a documentation value holds text. */
function hasText(doc: unknown): boolean {
  const value = typeof doc === "string" ? doc : (doc as Raw | undefined)?.value;
  return typeof value === "string" && value.trim().length > 0;
}

for (const c of CASES) {
  const found = await requiredServer(c.name, c.find);
  describe.skipIf(!found)(c.name, () => {
    const suite = realSuite(c.name, found);
    const state: { bridge?: BridgeHandle; direct?: LspClient; root?: string; uris?: string[] } = {};
    beforeAll(async () => {
      const [bridgeRoot, directRoot] = [c.fixture(), c.fixture()];
      state.root = bridgeRoot;
      const config = suite.config();
      const direct = async () => {
        state.direct = await startDirect(config, directRoot);
        await awaitLoaded(state.direct, c.plan);
        const client = state.direct;
        state.uris = [];
        for (const spot of [c.member, c.call]) {
          const uri = await openDirect(client, config, directRoot, spot.file);
          if (c.publishFirst) {
            await client.until(() => (client.publishes.has(uri) ? true : undefined), uri);
          }
          state.uris.push(uri);
        }
      };
      const bridge = async () => {
        state.bridge = await startRealBridge(bridgeRoot, config, {
          bridge: { column_unit: "utf-16" },
        });
        await ok(state.bridge, "session_status", { start: true });
      };
      // both sides load at once: the file's time is the slower one's
      await Promise.all([direct(), bridge()]);
    }, 240_000);
    afterAll(async () => {
      await state.direct?.close();
      await state.bridge?.close();
    });

    test("completion at a member access: the server's items, in order, on every page", async () => {
      const root = state.root as string;
      const ch = character(root, c.member);
      const got = await bridgeItems(state.bridge as BridgeHandle, c.member, ch + 1);
      const answer = await state.direct?.request("textDocument/completion", {
        textDocument: { uri: state.uris?.[0] },
        position: { line: c.member.line - 1, character: ch },
        context: { triggerKind: 1 },
      });
      const want = directItems(answer);
      const caps = state.direct?.initializeResult?.capabilities;
      console.log(
        `${c.name}: ${got.items.length} items, resolveProvider ${caps?.completionProvider?.resolveProvider === true}, signatureHelp ${caps?.signatureHelpProvider !== undefined}`,
      );
      expect(got.items.map((i) => [i.label, i.kind ?? "", i.insert])).toEqual(want.items);
      expect(got.incomplete).toBe(want.incomplete);
      const labels = got.items.map((i) => i.label.trim());
      for (const m of c.members) expect(labels.some((l) => l.startsWith(m))).toBe(true);

      // the first items resolved: documentation where the server gives it alone
      const r = await ok(state.bridge as BridgeHandle, "completion", {
        file: c.member.file,
        line: c.member.line,
        column: ch + 1,
        limit: 3,
        resolve: 3,
      });
      const resolves = caps?.completionProvider?.resolveProvider === true;
      const docs = await Promise.all(
        want.raw.slice(0, 3).map(async (item) => {
          const full = resolves
            ? await state.direct?.request<Raw>("completionItem/resolve", item)
            : item;
          return hasText(full?.documentation);
        }),
      );
      expect((r.items as BridgeItem[]).map((i) => i.documentation !== undefined)).toEqual(docs);
    });

    test("signature help inside a call's arguments: the server's signatures and indexes", async () => {
      const root = state.root as string;
      const ch = character(root, c.call);
      const got = await ok(state.bridge as BridgeHandle, "signature_help", {
        file: c.call.file,
        line: c.call.line,
        column: ch + 1,
      });
      const answer = await state.direct?.request("textDocument/signatureHelp", {
        textDocument: { uri: state.uris?.[1] },
        position: { line: c.call.line - 1, character: ch },
        context: { triggerKind: 1, isRetrigger: false },
      });
      const want = directSignatures(answer);
      const sigs = got.signatures as { label: string; parameters: { label: string }[] }[];
      expect({
        signatures: sigs.map((s) => ({
          label: s.label,
          parameters: s.parameters.map((p) => p.label),
        })),
        active_signature: got.active_signature,
        active_parameter: got.active_parameter,
      }).toEqual(want);
      const active = sigs[got.active_signature as number];
      expect(active?.label).toContain(c.signature);
      expect(got.active_parameter).toBe(0);
    });
  });
}
