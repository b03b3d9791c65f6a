/**
 * One real server through the compiled bridge on one fixture, as a table (SPEC §11): a case
 * lists what the server answers on the fixture — readiness by its own signal, hover,
 * definition, references, document and workspace symbols, rename_preview, diagnostics — and
 * what it does not offer (ServerLacksCapability), with positions in code points on lines
 * with astral characters, and in UTF-16 and UTF-8 units where a case says. `languageSuite`
 * turns a case into tests against one bridge, started once per case (a bridge per other
 * column unit), so a suite takes seconds. The measured answers are in
 * test/fixtures/README.md.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findPreset } from "../../src/config/presets.ts";
import { UNVERSIONED } from "../../src/session/settle/rule.ts";
import type { BridgeHandle } from "./bridge.ts";
import { findLanguageServer } from "./language-servers.ts";
import { checkLineProbe, type LineProbe } from "./line-probe.ts";
import { POLYGLOT_SERVERS } from "./polyglot.ts";
import {
  anyEditSet,
  diagnosticsFor,
  fails,
  locs,
  ok,
  range,
  readyByState,
  realSuite,
  requiredUnderCI,
  startAndStatus,
  startRealBridge,
  symbolTree,
} from "./real-bridge.ts";
import { copyFixture, fixturePath, materializeCFixture, type RealServer } from "./real-servers.ts";
import { removeTempDir, tempDir } from "./temp-dirs.ts";
import { waitForValue } from "./wait.ts";
import {
  expectServed,
  lastThroughZeroConfig,
  linkedPath,
  startZeroConfig,
} from "./zero-config-bridge.ts";

type Args = Record<string, unknown>;

export interface LanguageCase {
  server: string;
  /** "polyglot" (default), a C fixture with its compile database, or any other fixture */
  fixture?: string;
  /** what "installed" means beyond an absolute command (a version), see requiredUnderCI */
  installed?: (found: RealServer) => void;
  /** readiness condition prefixes, as session_status lists them */
  ready: string[];
  /** the encoding session_status reports for the session */
  encoding: string;
  /** more that the first status must show (before any other call opens a document) */
  status?: (status: Record<string, unknown>) => void;
  /** `answer`: the whole answer, where a case pins it */
  hover?: { at: Args; text?: string | null; includes?: string; range?: unknown; answer?: Args }[];
  definition?: { at: Args; locs: string[] }[];
  references?: { at: Args; locs: string[] }[];
  /** the other tools that answer locations: declaration, implementation, type_definition */
  locations?: { tool: string; at: Args; locs: string[] }[];
  symbols?: { file: string; tree: string[] }[];
  /**
   * A stated limit: a server with no signal that its index is complete (ccls) is polled,
   * before the other calls, until these references hold this many locations
   */
  indexed?: { at: Args; count: number };
  /**
   * calls the server cannot answer: ServerLacksCapability, never an empty answer; `method`:
   * the LSP method the details name
   */
  lacks?: { tool: string; args: Args; method?: string }[];
  /**
   * The settled set of one file; `settled: false` for servers nothing proves current.
   * `pushToo`: the server also pushes what its pull answers, merged when it arrived in time
   * (channels `pull` or `pull`+`push`): the items are compared on their pull channel.
   */
  diagnostics?: { file: string; items: unknown[]; settled: boolean; pushToo?: true };
  /** files with no diagnostics at all */
  clean?: string[];
  /**
   * The diagnostics of `file` (on `fixture`, default the case's), complete on the first call
   * of each of three fresh sessions, the last through zero-config; `ready` checked first
   */
  fresh?: { fixture?: string; file: string; items: unknown[]; ready?: string[] };
  /** where it breaks lines, probed on a file of its language (line-probe.ts) */
  lines?: LineProbe;
  /** rename_preview at `at`: the ranges it edits, as `locs` spells them; nothing written */
  rename?: { at: Args; new_name: string; locs: string[] };
  /** workspace_symbols: what each query finds */
  workspaceSymbols?: { query: string; symbols: unknown[] }[];
  /** diagnostics with no file: these files and items, `complete: false` (no workspace pull) */
  workspace?: { files: string[]; items: unknown[] };
  /**
   * The emoji line in other column units, a bridge each, `col` mapping a code-point column
   * to the unit (two astral characters before: UTF-16 +2, UTF-8 +6): references at `at`
   * (a symbol) by its column `column` in the unit equal those by the symbol, `refs(col)`;
   * `hover`: its range [column, end_column]; `diagnostics`: one file's; `inside`: a column
   * inside the first astral character, refused (PositionOutOfRange), never clamped.
   */
  units?: {
    units: ("utf-16" | "utf-8")[];
    at: { file: string; line: number; symbol: string };
    column: number;
    refs: (col: (cp: number) => number) => string[];
    hover?: [number, number];
    diagnostics?: { file: string; items: (col: (cp: number) => number) => unknown[] };
    inside?: number;
  };
}

/** A code-point column in the given unit on the fixtures' emoji lines (two astral characters). */
const UNIT_SHIFT = { "utf-16": 2, "utf-8": 6 };

/** rename_preview's `changes` that edit these ranges (`file l:c–l:c`, by file in order). */
function renameChanges(spans: string[], newText: string) {
  const changes: { file: string; edits: Record<string, unknown>[] }[] = [];
  for (const s of spans) {
    const [, file = "", ...at] = /^(.*) (\d+):(\d+)–(\d+):(\d+)$/.exec(s) ?? [];
    const [l, c, el, ec] = at.map(Number) as [number, number, number, number];
    const edit = { ...range(l, c, el, ec), new_text: newText };
    const last = changes.at(-1);
    if (last?.file === file) last.edits.push(edit);
    else changes.push({ file, edits: [edit] });
  }
  return changes;
}

/** An answer's items on their pull channel alone (see `pushToo`). */
function pullChannel(answer: Record<string, unknown>): Record<string, unknown> {
  const items = answer.diagnostics as { channels: string[] }[];
  for (const item of items) expect(item.channels).toContain("pull");
  return { ...answer, diagnostics: items.map((i) => ({ ...i, channels: ["pull"] })) };
}

/** The answer `diagnostics {file}` gives once the server has said everything. */
export function expectedDiagnostics(d: NonNullable<LanguageCase["diagnostics"]>) {
  const base = diagnosticsFor([d.file], d.items);
  return d.settled
    ? base
    : { ...base, settled: false, unsettled: [{ file: d.file, reason: UNVERSIONED }] };
}

function fixtureFor(c: Pick<LanguageCase, "fixture">): string {
  if (c.fixture === "c" || c.fixture === "c-errors")
    return materializeCFixture(undefined, c.fixture);
  return copyFixture(c.fixture ?? "polyglot");
}

/** `diagnostics {file}` until it holds the measured items (a `publish` server's first may not). */
export async function settledDiagnostics(
  bridge: BridgeHandle,
  d: NonNullable<LanguageCase["diagnostics"]>,
): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  try {
    return await waitForValue(
      async () => {
        last = await ok(bridge, "diagnostics", { file: d.file });
        return Bun.deepEquals(last.diagnostics, d.items) ? last : undefined;
      },
      30_000,
      { intervalMs: 100, what: `the diagnostics of ${d.file}` },
    );
  } catch {
    return last; // compared by the caller, which shows the difference
  }
}

/** For a case with `indexed`: its references polled (deadline) until the index holds them. */
async function indexedFixture(bridge: BridgeHandle, c: LanguageCase): Promise<void> {
  const indexed = c.indexed;
  if (!indexed) return;
  await waitForValue(
    async () => {
      const r = await ok(bridge, "references", indexed.at);
      return (r.locations as unknown[]).length === indexed.count ? true : undefined;
    },
    30_000,
    { intervalMs: 100, what: `${c.server}'s index of the fixture` },
  );
}

/** A server's own tests beside its case, on the case's bridge and fixture copy. */
export type CaseTests = (bridge: () => BridgeHandle, root: () => string) => void;

/**
 * The case's tests on one bridge, then `more` (a suite's own tests) on the same bridge.
 * Returns the suite (test/support/real-bridge.ts) for the file's other tests.
 */
export function languageSuite(
  c: LanguageCase,
  found: RealServer | null,
  more?: CaseTests,
): ReturnType<typeof realSuite> {
  if (c.installed) requiredUnderCI(c.server, found, c.installed);
  else requiredUnderCI(c.server, found);
  const suite = realSuite(c.server, found);
  describe.skipIf(!found)(`${c.server} on the ${c.fixture ?? "polyglot"} fixture`, () => {
    let bridge: BridgeHandle;
    let root: string;
    beforeAll(async () => {
      root = fixtureFor(c);
      bridge = await startRealBridge(root, suite.config());
      await indexedFixture(bridge, c);
    });
    afterAll(async () => {
      await bridge?.close();
      removeTempDir(root);
    });

    test("ready by its own signal", async () => {
      const s = await startAndStatus(bridge);
      readyByState(s, c.ready);
      expect(s.position_encoding).toBe(c.encoding);
      c.status?.(s);
    });

    if (c.diagnostics) {
      const d = c.diagnostics;
      test(`diagnostics of ${d.file}: ${d.settled ? "settled" : "unsettled (no version, no end signal)"}`, async () => {
        const r = d.settled
          ? await ok(bridge, "diagnostics", { file: d.file })
          : await settledDiagnostics(bridge, d);
        expect(d.pushToo ? pullChannel(r) : r).toEqual(expectedDiagnostics(d));
      });
    }
    if (c.clean) {
      const clean = c.clean;
      test(`diagnostics: none for ${clean.join(", ")}`, async () => {
        for (const file of clean) {
          expect(await ok(bridge, "diagnostics", { file })).toEqual(diagnosticsFor([file], []));
        }
      });
    }

    for (const h of c.hover ?? []) {
      test(`hover ${JSON.stringify(h.at)}`, async () => {
        const r = await ok(bridge, "hover", h.at);
        if (h.text !== undefined) expect(r.text).toBe(h.text);
        if (h.includes !== undefined) expect(r.text).toContain(h.includes);
        if (h.range !== undefined) expect(r.range).toEqual(h.range);
        if (h.answer !== undefined) expect(r).toEqual(h.answer);
      });
    }
    for (const d of c.definition ?? []) {
      test(`definition ${JSON.stringify(d.at)}`, async () => {
        expect(locs(await ok(bridge, "definition", d.at))).toEqual(d.locs);
      });
    }
    for (const d of c.references ?? []) {
      test(`references ${JSON.stringify(d.at)}`, async () => {
        expect(locs(await ok(bridge, "references", d.at))).toEqual(d.locs);
      });
    }
    for (const l of c.locations ?? []) {
      test(`${l.tool} ${JSON.stringify(l.at)}`, async () => {
        expect(locs(await ok(bridge, l.tool, l.at))).toEqual(l.locs);
      });
    }
    for (const s of c.symbols ?? []) {
      test(`document_symbols ${s.file}`, async () => {
        const r = await ok(bridge, "document_symbols", { file: s.file });
        expect(symbolTree(r.symbols as never)).toEqual(s.tree);
      });
    }
    // the preset's claim against the server's own capabilities (a diagnostics-only one is
    // never asked for symbols)
    const preset = findPreset(c.server);
    if (preset?.server.roles.includes("semantics")) {
      test("workspace_symbols: offered exactly when its preset says so", async () => {
        const query = { query: "a", limit: 1 };
        const named = await bridge.call("workspace_symbols", { server: c.server, ...query });
        const unnamed = await bridge.call("workspace_symbols", query);
        if (preset.server.workspace_symbols) {
          expect(named.isError, named.text).toBe(false);
          expect(unnamed.isError, unnamed.text).toBe(false);
        } else {
          // without `server` it is no candidate at all
          expect((named.structured as { code: string }).code).toBe("ServerLacksCapability");
          expect((unnamed.structured as { code: string }).code).toBe("NoServerForFile");
        }
      });
    }
    const rename = c.rename;
    if (rename) {
      test(`rename_preview ${JSON.stringify(rename.at)}: ${rename.locs.length} edits, nothing written`, async () => {
        const r = await ok(bridge, "rename_preview", { ...rename.at, new_name: rename.new_name });
        const changes = renameChanges(rename.locs, rename.new_name);
        expect(r).toEqual({
          applied: false,
          new_name: rename.new_name,
          edit_set: anyEditSet(),
          changes,
        });
        for (const { file } of changes) {
          const original = readFileSync(join(fixturePath(c.fixture ?? "polyglot"), file), "utf8");
          expect(readFileSync(join(root, file), "utf8")).toBe(original);
        }
      });
    }
    for (const w of c.workspaceSymbols ?? []) {
      test(`workspace_symbols "${w.query}"`, async () => {
        const r = await ok(bridge, "workspace_symbols", { query: w.query });
        expect(r).toEqual({ symbols: w.symbols, total: w.symbols.length });
      });
    }
    const workspace = c.workspace;
    if (workspace) {
      test("diagnostics workspace-wide: the files it reported on; no workspace pull", async () => {
        expect(await ok(bridge, "diagnostics")).toEqual(
          diagnosticsFor(workspace.files, workspace.items, false),
        );
      });
    }
    for (const l of c.lacks ?? []) {
      test(`${l.tool}: ServerLacksCapability`, async () => {
        const err = await fails(bridge, l.tool, l.args);
        expect(err.code).toBe("ServerLacksCapability");
        if (l.method) expect(err.details).toEqual({ server: c.server, method: l.method });
      });
    }
    more?.(
      () => bridge,
      () => root,
    );
    const lines = c.lines;
    if (lines) {
      // last: the probe file is new to the workspace, which the other answers never name
      test(`its lines (${findPreset(c.server)?.server.line_terminators?.join(", ")}): ${lines.file}`, async () => {
        await checkLineProbe(bridge, root, lines);
      });
    }
  });
  if (c.fresh) freshSessions(c, c.fresh, found);
  if (c.units) columnUnits(c, c.units, found, suite);
  return suite;
}

function columnUnits(
  c: LanguageCase,
  u: NonNullable<LanguageCase["units"]>,
  found: RealServer | null,
  suite: ReturnType<typeof realSuite>,
): void {
  describe.skipIf(!found)(`${c.server} column units on the emoji lines`, () => {
    for (const unit of u.units) {
      const col = (cp: number) => cp + UNIT_SHIFT[unit];
      test(`column_unit = "${unit}": positions in and out in ${unit}`, async () => {
        await using bridge = await startRealBridge(fixtureFor(c), suite.config(), {
          bridge: { column_unit: unit },
        });
        const at = { file: u.at.file, line: u.at.line };
        const byColumn = await ok(bridge, "references", { ...at, column: col(u.column) });
        expect(locs(byColumn)).toEqual(u.refs(col));
        expect(await ok(bridge, "references", u.at)).toEqual(byColumn);
        if (u.hover) {
          const hover = await ok(bridge, "hover", { ...at, column: col(u.column) });
          expect(hover.range).toEqual(
            range(u.at.line, col(u.hover[0]), u.at.line, col(u.hover[1])),
          );
        }
        const d = u.diagnostics;
        if (d) {
          const r = await ok(bridge, "diagnostics", { file: d.file });
          expect(r).toEqual(diagnosticsFor([d.file], d.items(col)));
        }
        if (u.inside !== undefined) {
          const inside = await fails(bridge, "references", { ...at, column: u.inside });
          expect(inside.code).toBe("PositionOutOfRange");
        }
      });
    }
  });
}

function freshSessions(
  c: LanguageCase,
  f: NonNullable<LanguageCase["fresh"]>,
  found: RealServer | null,
): void {
  describe.skipIf(!found)(`${c.server} diagnostics in fresh sessions`, () => {
    test(`${f.file}: complete on the first call of each of three fresh sessions, the last through zero-config`, async () => {
      if (!found) return;
      for (let i = 0; i < 3; i++) {
        // the last through zero-config, the path users run (SPEC §2.1)
        const root = fixtureFor({ fixture: f.fixture ?? c.fixture });
        await using bridge = await lastThroughZeroConfig(i, 3, root, found);
        if (f.ready) readyByState(await startAndStatus(bridge, c.server), f.ready);
        const r = await ok(bridge, "diagnostics", { file: f.file });
        expect(r).toEqual(diagnosticsFor([f.file], f.items));
      }
    });
  });
}

/** Cases in groups whose servers serve different files, on one fixture, first fit. */
function zeroConfigGroups(cases: [LanguageCase, RealServer][]): [LanguageCase, RealServer][][] {
  const served = (c: LanguageCase) => {
    const server = findPreset(c.server)?.server;
    return server ? [...Object.keys(server.extensions), ...Object.keys(server.filenames)] : [];
  };
  const groups: [LanguageCase, RealServer][][] = [];
  for (const entry of cases) {
    const [c] = entry;
    const fits = groups.find((g) =>
      g.every(([o]) => o.fixture === c.fixture && !served(o).some((k) => served(c).includes(k))),
    );
    if (fits) fits.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

/** The case's first measured answer, asked again: a definition, else its diagnostics. */
async function firstAnswer(bridge: BridgeHandle, c: LanguageCase): Promise<void> {
  await indexedFixture(bridge, c);
  const d = c.definition?.[0];
  if (d) {
    expect(locs(await ok(bridge, "definition", d.at))).toEqual(d.locs);
  } else if (c.diagnostics) {
    const r = await settledDiagnostics(bridge, c.diagnostics);
    expect(c.diagnostics.pushToo ? pullChannel(r) : r).toEqual(expectedDiagnostics(c.diagnostics));
  }
}

/**
 * The path users run (SPEC §2.1) for a file of cases: per group of servers that serve
 * different files, a bridge with no configuration on the fixture, PATH holding links to
 * just those servers: discovery serves each case's server with the binary and version the
 * case runs. A server the polyglot suite does not ask through zero-config
 * (test/real/polyglot.test.ts) is asked here too: its first measured answer.
 */
function zeroConfigCases(cases: [LanguageCase, RealServer][]): void {
  const groups = zeroConfigGroups(cases);
  for (const [i, group] of groups.entries()) {
    describe(`through zero-config, the path users run (group ${i + 1} of ${groups.length})`, () => {
      let bridge: BridgeHandle;
      const dirs: string[] = [];
      beforeAll(async () => {
        const root = fixtureFor(group[0]?.[0] ?? {});
        const dir = tempDir("theodolite-zero-config-");
        dirs.push(root, dir);
        const servers = group.map(([, found]) => found);
        bridge = await startZeroConfig(root, servers, linkedPath(dir, servers).bin);
      });
      afterAll(async () => {
        await bridge?.close();
        for (const d of dirs) removeTempDir(d);
      });
      for (const [c, found] of group) {
        test(`${c.server}: served as the case runs it${POLYGLOT_SERVERS.includes(c.server) ? "" : ", its first answer as measured"}`, async () => {
          await expectServed(bridge, found);
          if (!POLYGLOT_SERVERS.includes(c.server)) await firstAnswer(bridge, c);
        });
      }
    });
  }
}

/** Find each case's server and declare its suite; then the cases through zero-config. */
export async function languageCases(cases: LanguageCase[]): Promise<void> {
  const located: [LanguageCase, RealServer][] = [];
  for (const c of cases) {
    const found = await findLanguageServer(c.server);
    languageSuite(c, found);
    const again = located.some(([o]) => o.server === c.server && o.fixture === c.fixture);
    if (found && !again) located.push([c, found]);
  }
  zeroConfigCases(located);
}
