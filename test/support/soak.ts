/**
 * The randomized soak against the truth (SPEC §5, §6): a seeded sequence of the edits
 * developers and agents make — errors introduced and fixed, lines inserted above and
 * removed, files reverted, created (also in new directories) and deleted, a configuration
 * flipped, a file no list names changed (a header's macro, a base configuration, cargo's
 * `[env]`: SPEC §5.3), a branch switched (several files rewritten at once, unlinked and
 * created as `git checkout` does) — on one
 * long-lived bridge; after every step its answers are compared with those of a bridge
 * started afresh on a copy of the files as they are: diagnostics for a file, for a change
 * set (and the `since` delta against the previous one, which must add up), for the whole
 * workspace, and a reference list. Where the language names a `rename`, each step then
 * renames the referenced symbol with rename_apply on the long-lived bridge and back: applied,
 * it must hold every edit the fresh bridge previews and leave no whole-word occurrence of
 * the old name in those files (EditIncomplete is a permitted refusal), and renaming back
 * must restore every file. With `proposals`, each step then previews that many seeded
 * proposals (`diagnostics {contents}`: an error added or fixed, a line above, a file reverted
 * or created) on both bridges, and the answers must be equal, the files untouched, and the
 * long-lived bridge's next plain answer still the fresh one's (SPEC §6.2). Every mismatch is
 * reported with its seed and step.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { occurrences } from "../../src/apply/complete.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import { positionsBlanked } from "../../src/normalize/diagnostics-diff.ts";
import type { BridgeHandle } from "./bridge.ts";
import { closeFresh, startFreshWith } from "./coherence.ts";
import { Prng } from "./prng.ts";
import { ok, type RealBridgeOptions, startRealBridge } from "./real-bridge.ts";
import type { RealServer } from "./real-servers.ts";
import { startZeroConfig } from "./zero-config-bridge.ts";

/** What the soak may do to one language's fixture. */
export interface SoakLanguage {
  /** source files of the fixture, always present (revert and branch restore them) */
  files: string[];
  /** a top-level line with a type error, unique by `n` */
  bad(n: number): string;
  /** a harmless line (a comment) */
  fine(n: number): string;
  /**
   * a new file: its path (in a new directory when `nested`), text, and what else changes
   * with it (a `mod` line)
   */
  newFile(
    n: number,
    broken: boolean,
    nested: boolean,
  ): { path: string; text: string; register?: Line };
  /** the configuration switched on or off: the files to write */
  flip?: (on: boolean) => Record<string, string>;
  /**
   * a file no list names switched on or off — a header's macro, a base configuration,
   * cargo's `[env]` (SPEC §5.3): the files to write
   */
  depend?: (on: boolean) => Record<string, string>;
  /** files written before the bridge starts (what the flip acts on) */
  setup?: Record<string, string>;
  /** a reference list compared at every step */
  references: { file: string; symbol: string };
  /** the referenced symbol is renamed to this and back at every step (gated bridge) */
  rename?: string;
}

/** A line appended to a file (a `mod` declaration for a new Rust file). */
export type Line = { file: string; line: string };

interface Step {
  kind: string;
  detail: string;
}

/** The files as they are meant to be, and what was added that a later step may take back. */
class Model {
  readonly texts = new Map<string, string>();
  readonly bad: { file: string; line: string }[] = [];
  readonly fine: { file: string; line: string }[] = [];
  readonly created: { path: string; register?: Line }[] = [];
  flipped = false;
  depended = false;
  history: Map<string, string>[] = [];

  constructor(
    readonly root: string,
    readonly lang: SoakLanguage,
  ) {
    for (const f of lang.files) this.texts.set(f, readFileSync(join(root, f), "utf8"));
  }

  write(file: string, text: string): void {
    this.texts.set(file, text);
    mkdirSync(dirname(join(this.root, file)), { recursive: true });
    writeFileSync(join(this.root, file), text);
  }

  /** As `git checkout` replaces a file: unlink, then create. */
  replace(file: string, text: string): void {
    rmSync(join(this.root, file), { force: true });
    this.write(file, text);
  }
}

function withoutLine(text: string, line: string): string {
  const lines = text.split("\n");
  const at = lines.indexOf(line);
  if (at >= 0) lines.splice(at, 1);
  return lines.join("\n");
}

/**
 * A comment holding an astral character (two UTF-16 units, one code point): put before a
 * use of the compared symbol, it moves that use's columns differently in the server's unit
 * and the client's, so an answer converted with a table of the file's older text is off.
 */
const ACCENT = "/*\u{1D4B3}*/";
/** Files whose languages take a block comment anywhere a space may stand. */
const BLOCK_COMMENTS = /\.(ts|tsx|js|c|h|cc|cpp|hpp|go|rs)$/;

const appendLine = (text: string, line: string) =>
  `${text.endsWith("\n") ? text : `${text}\n`}${line}\n`;

/** One seeded step on the model and the disk. */
function step(m: Model, rng: Prng, n: number, originals: Map<string, string>): Step {
  const { lang } = m;
  const kinds = [
    "break",
    "break",
    "fix",
    "fix",
    "shift",
    "unshift",
    "revert",
    "create",
    "delete",
    "branch",
  ];
  if (lang.flip) kinds.push("flip");
  if (lang.depend) kinds.push("depend");
  if (lang.files.some((f) => BLOCK_COMMENTS.test(f))) kinds.push("accent");
  for (;;) {
    const kind = rng.pick(kinds);
    const file = rng.pick(lang.files);
    switch (kind) {
      case "break": {
        const line = lang.bad(n);
        m.write(file, appendLine(m.texts.get(file) ?? "", line));
        m.bad.push({ file, line });
        return { kind, detail: file };
      }
      case "fix": {
        const i = m.bad.length === 0 ? -1 : rng.int(0, m.bad.length - 1);
        const b = i < 0 ? undefined : m.bad.splice(i, 1)[0];
        if (b === undefined || !m.texts.has(b.file)) continue;
        m.write(b.file, withoutLine(m.texts.get(b.file) ?? "", b.line));
        return { kind, detail: b.file };
      }
      case "shift": {
        const line = lang.fine(n);
        m.write(file, `${line}\n${m.texts.get(file) ?? ""}`);
        m.fine.push({ file, line });
        return { kind, detail: file };
      }
      case "unshift": {
        const f = m.fine.pop();
        if (f === undefined) continue;
        m.write(f.file, withoutLine(m.texts.get(f.file) ?? "", f.line));
        return { kind, detail: f.file };
      }
      case "revert": {
        m.replace(file, originals.get(file) ?? "");
        return { kind, detail: file };
      }
      case "create": {
        const made = lang.newFile(n, rng.chance(0.5), rng.chance(0.5));
        m.write(made.path, made.text);
        const reg = made.register;
        if (reg) m.write(reg.file, appendLine(m.texts.get(reg.file) ?? "", reg.line));
        m.created.push({ path: made.path, ...(made.register ? { register: made.register } : {}) });
        return { kind, detail: made.path };
      }
      case "delete": {
        const c = m.created.pop();
        if (c === undefined) continue;
        if (c.register) {
          m.write(
            c.register.file,
            withoutLine(m.texts.get(c.register.file) ?? "", c.register.line),
          );
        }
        rmSync(join(m.root, c.path), { force: true });
        m.texts.delete(c.path);
        return { kind, detail: c.path };
      }
      case "accent": {
        // a created file first: no call opens it, so only its line table converts its uses
        const usesIn = (files: readonly string[]) =>
          files.flatMap((f) =>
            BLOCK_COMMENTS.test(f)
              ? occurrences(m.texts.get(f) ?? "", lang.references.symbol).map((at) => ({ f, at }))
              : [],
          );
        const created = usesIn(m.created.map((c) => c.path));
        const uses = created.length > 0 ? created : usesIn(lang.files);
        const use = uses.length === 0 ? undefined : rng.pick(uses);
        if (use === undefined) continue;
        const text = m.texts.get(use.f) ?? "";
        m.write(use.f, `${text.slice(0, use.at)}${ACCENT}${text.slice(use.at)}`);
        return { kind, detail: use.f };
      }
      case "flip": {
        if (!lang.flip) continue;
        m.flipped = !m.flipped;
        for (const [f, text] of Object.entries(lang.flip(m.flipped))) m.write(f, text);
        return { kind, detail: m.flipped ? "on" : "off" };
      }
      case "depend": {
        if (!lang.depend) continue;
        m.depended = !m.depended;
        for (const [f, text] of Object.entries(lang.depend(m.depended))) m.write(f, text);
        return { kind, detail: m.depended ? "on" : "off" };
      }
      case "branch": {
        // back to the source files as they were some steps ago, several at once
        const past = m.history.length === 0 ? undefined : rng.pick(m.history);
        if (past === undefined) continue;
        const files = lang.files.filter((f) => past.get(f) !== m.texts.get(f));
        if (files.length === 0) continue;
        for (const f of files) m.replace(f, past.get(f) ?? "");
        return { kind, detail: files.join(",") };
      }
    }
  }
}

/** A seeded proposal on the model as it is: the texts a patch would write, none written. */
function proposal(
  m: Model,
  rng: Prng,
  n: number,
  originals: Map<string, string>,
): { kind: string; contents: { file: string; text: string }[] } {
  const { lang } = m;
  const file = rng.pick(lang.files);
  const text = m.texts.get(file) ?? "";
  const kind = rng.pick(["break", "break", "fix", "shift", "revert", "create", "pair"]);
  const fix = m.bad.length === 0 ? undefined : rng.pick(m.bad);
  if (kind === "break") return { kind, contents: [{ file, text: appendLine(text, lang.bad(n)) }] };
  if (kind === "fix" && fix !== undefined && m.texts.has(fix.file)) {
    const fixed = withoutLine(m.texts.get(fix.file) ?? "", fix.line);
    return { kind, contents: [{ file: fix.file, text: fixed }] };
  }
  if (kind === "shift") return { kind, contents: [{ file, text: `${lang.fine(n)}\n${text}` }] };
  if (kind === "revert") return { kind, contents: [{ file, text: originals.get(file) ?? text }] };
  // a new file (nested or not) with what registers it; "pair": an error in another file too
  const made = lang.newFile(n, rng.chance(0.5), rng.chance(0.5));
  const contents = [{ file: made.path, text: made.text }];
  const reg = made.register;
  if (reg)
    contents.push({ file: reg.file, text: appendLine(m.texts.get(reg.file) ?? "", reg.line) });
  const other = lang.files.find((f) => f !== reg?.file);
  if (kind === "pair" && other !== undefined) {
    contents.push({ file: other, text: appendLine(m.texts.get(other) ?? "", lang.bad(n)) });
  }
  return { kind: kind === "fix" ? "create" : kind, contents };
}

/**
 * The proposals previewed on the long-lived bridge once it holds open what the fresh one
 * does — the files of its workspace answer, which the fresh bridge was asked about, and the
 * fresh bridge's warm-up file — since a preview reports the open documents (SPEC §6.2);
 * then the plain answer for `set`.
 */
async function previewOn(
  long: BridgeHandle,
  fresh: BridgeHandle,
  proposed: { kind: string; contents: { file: string; text: string }[] }[],
  set: string[],
  listed: string[],
  result: SoakResult,
): Promise<{ previews: unknown[]; afterPreviews: unknown }> {
  if (proposed.length === 0) return { previews: [], afterPreviews: undefined };
  if (listed.length > 0) await answer(long, "diagnostics", { files: listed });
  const sessions = (await ok(fresh, "session_status", {})).sessions as {
    readiness?: { warmup?: { file?: string | null } | null };
  }[];
  for (const s of sessions) {
    const warm = s.readiness?.warmup?.file;
    if (typeof warm === "string") await answer(long, "diagnostics", { file: warm });
  }
  const previews: unknown[] = [];
  for (const p of proposed) {
    result.proposals[p.kind] = (result.proposals[p.kind] ?? 0) + 1;
    previews.push(await answer(long, "diagnostics", { contents: p.contents }));
  }
  return { previews, afterPreviews: await answer(long, "diagnostics", { files: set }) };
}

/**
 * An answer without what differs between two bridges by design: the snapshot (it digests
 * the root), a restart, and how many stale locations the long-lived one dropped.
 */
function comparable(r: Record<string, unknown> | { error: string }, root: string): unknown {
  const { snapshot: _s, restarted: _r, vanished: _v, ...rest } = r as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest).replaceAll(root, "<root>"));
}

/**
 * Two answers about uses without the locations in files either names in `outside_program`:
 * the server sees those only while it holds them open, and the answers say so (SPEC §4.3).
 */
function flagged(a: unknown, b: unknown): [unknown, unknown] {
  type Uses = {
    locations?: { file: string }[];
    total?: number;
    outside_program?: { file: string }[];
  };
  const x = a as Uses;
  const y = b as Uses;
  const named = new Set(
    [...(x.outside_program ?? []), ...(y.outside_program ?? [])].map((o) => o.file),
  );
  const keep = (u: Uses): Uses => {
    if (u.locations === undefined) return u;
    const locations = u.locations.filter((l) => !named.has(l.file));
    return { ...u, locations, total: (u.total ?? 0) - (u.locations.length - locations.length) };
  };
  return [keep(x), keep(y)];
}

async function answer(bridge: BridgeHandle, tool: string, args: Record<string, unknown>) {
  const r = await bridge.call(tool, args);
  return r.isError ? { error: r.text } : r.structured;
}

/** Diagnostics as a multiset of keys (file, severity, code, message). */
/**
 * What a delta matches diagnostics by (SPEC §6.1): not their lines, nor the positions their
 * messages render (bacon-ls's `--> src/lib.rs:8:25` and `8 |` gutter move with the code).
 */
function keys(items: unknown): string[] {
  return ((items as Record<string, unknown>[] | undefined) ?? [])
    .map((d) =>
      JSON.stringify([
        d.file ?? d.uri,
        d.severity,
        d.code ?? null,
        positionsBlanked(String(d.message)),
      ]),
    )
    .sort();
}

export interface SoakResult {
  steps: number;
  compared: number;
  mismatches: string[];
  kinds: Record<string, number>;
  /** rename steps by outcome: applied, refused (EditIncomplete), both (fresh refused too) */
  renames: Record<string, number>;
  /** previews by kind of proposal */
  proposals: Record<string, number>;
}

type Answer = Record<string, unknown> & { error?: string };

/**
 * The rename step: rename_apply on the long-lived bridge against the fresh bridge's
 * preview, then back, which must restore every file of the model. Mismatches are pushed.
 */
async function renameStep(
  m: Model,
  long: BridgeHandle,
  fresh: BridgeHandle,
  to: string,
  where: string,
  result: SoakResult,
): Promise<void> {
  const { file, symbol } = m.lang.references;
  const there = { file, symbol, new_name: to };
  const truth = (await answer(fresh, "rename_preview", there)) as Answer;
  const applied = (await answer(long, "rename_apply", there)) as Answer;
  const outcome =
    applied.error === undefined
      ? "applied"
      : applied.error.includes('"EditIncomplete"')
        ? "refused"
        : "error";
  result.renames[outcome] = (result.renames[outcome] ?? 0) + 1;
  const bad = (what: string) =>
    result.mismatches.push(`${where}: rename ${symbol} → ${to}: ${what}`);
  if (truth.error !== undefined) {
    if (outcome === "applied") bad(`applied where a fresh bridge refuses: ${truth.error}`);
    return;
  }
  if (outcome === "error") bad(`failed: ${applied.error}`);
  if (outcome !== "applied") return;
  const done = new Set((applied.changes as unknown[]).map((c) => JSON.stringify(c)));
  for (const c of truth.changes as { file: string }[]) {
    if (!done.has(JSON.stringify(c))) bad(`a fresh bridge also edits ${JSON.stringify(c)}`);
    const left = occurrences(readFileSync(join(m.root, c.file), "utf8"), symbol);
    if (left.length > 0) bad(`applied: true, yet ${c.file} still holds ${symbol}`);
  }
  const back = (await answer(long, "rename_apply", {
    file,
    symbol: to,
    new_name: symbol,
  })) as Answer;
  if (back.error !== undefined) bad(`renaming back failed: ${back.error}`);
  for (const [f, text] of m.texts) {
    if (readFileSync(join(m.root, f), "utf8") === text) continue;
    bad(`renaming back left ${f} changed`);
    m.write(f, text); // the model stays the truth for the steps that follow
  }
}

/**
 * Run `steps` seeded steps on a copy of `root` served by `server`; compare after each with
 * a fresh bridge. The caller removes `root`.
 */
export async function soak(opts: {
  root: string;
  server: ServerConfig;
  lang: SoakLanguage;
  seed: number;
  steps: number;
  bridge?: RealBridgeOptions;
  /**
   * both bridges started the way users run it, with no configuration (SPEC §2.1), finding
   * these servers; no rename steps then (zero-config has no apply class)
   */
  zeroConfig?: RealServer[];
  /** called with each step's log line */
  log?: (line: string) => void;
  /** previews per step (`diagnostics {contents}`), compared with the fresh bridge's */
  proposals?: number;
}): Promise<SoakResult> {
  const { root, lang, server } = opts;
  for (const [f, text] of Object.entries(lang.setup ?? {})) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  const model = new Model(root, lang);
  const originals = new Map(model.texts);
  const rng = new Prng(Prng.derive(opts.seed, "soak"));
  // their own sequence: the steps are the same with proposals or without
  const proposing = new Prng(Prng.derive(opts.seed, "proposals"));
  const set = lang.files.slice(0, Math.min(2, lang.files.length));
  const result: SoakResult = {
    steps: 0,
    compared: 0,
    mismatches: [],
    kinds: {},
    renames: {},
    proposals: {},
  };
  const gated = (o: RealBridgeOptions = {}): RealBridgeOptions => ({
    ...o,
    bridge: { ...o.bridge, mutation: "gated", mutation_allowlist: ["soak"] },
    clientName: "soak",
  });
  const withLog = (o: RealBridgeOptions = {}): RealBridgeOptions => {
    // SOAK_LOG=FILE: the long-lived bridge's debug log (runs requested, progress, publishes)
    const file = process.env.SOAK_LOG;
    if (file === undefined || file === "") return o;
    const logging = { level: "debug", file, max_bytes: 1 << 30, max_files: 2 };
    return { ...o, bridge: { ...o.bridge, log: logging } };
  };
  const zero = opts.zeroConfig;
  const renames = zero === undefined ? lang.rename : undefined;
  const longOptions = withLog(renames === undefined ? opts.bridge : gated(opts.bridge));
  const start = (dir: string, o: RealBridgeOptions) =>
    zero === undefined ? startRealBridge(dir, server, o) : startZeroConfig(dir, zero);
  // the fresh bridge's sessions started at once: the servers run here, which answer what is
  // compared; another that zero-config finds (a data file's) starts if an answer needs it
  const served = (zero?.map((s) => s.config) ?? [server, ...(opts.bridge?.extraServers ?? [])]).map(
    (s) => s.name,
  );
  const bridge = await start(root, longOptions);
  // fresh bridges still stopping: a stop is no part of the proof, so the next step goes on
  const stopping: Promise<void>[] = [];
  try {
    await ok(bridge, "session_status", { start: true });
    let previous = await ok(bridge, "diagnostics", { files: set });
    for (let n = 1; n <= opts.steps; n++) {
      model.history.push(new Map(model.texts));
      if (model.history.length > 8) model.history.shift();
      const s = step(model, rng, n, originals);
      result.steps += 1;
      result.kinds[s.kind] = (result.kinds[s.kind] ?? 0) + 1;
      const file = rng.pick(lang.files);
      // the copy is of the files as the step left them; the fresh bridge on it starts (its
      // cold start is most of a step's work) while the long-lived one answers, which writes
      // nothing a copy takes (target/ and .cache are not copied)
      const starting = startFreshWith(root, (dir) => start(dir, opts.bridge ?? {}), [], served);
      const where = `seed ${opts.seed} step ${n} (${s.kind} ${s.detail})`;
      try {
        const delta = await answer(bridge, "diagnostics", { files: set, since: previous.snapshot });
        const long = {
          file: await answer(bridge, "diagnostics", { file }),
          set: await answer(bridge, "diagnostics", { files: set }),
          all: await answer(bridge, "diagnostics", {}),
          refs: await answer(bridge, "references", lang.references),
        };
        const proposed = Array.from({ length: opts.proposals ?? 0 }, (_, i) =>
          proposal(model, proposing, n * 100 + i + 50, originals),
        );
        // the workspace answer's files inside the root, asked of the fresh bridge as a change set
        const listed = ((long.all as { files?: string[] }).files ?? []).filter(
          (f) => !f.startsWith("/"),
        );
        const { bridge: fresh, dir: freshRoot } = await starting;
        const truth = {
          file: await answer(fresh, "diagnostics", { file }),
          set: await answer(fresh, "diagnostics", { files: set }),
          all:
            listed.length > 0 ? await answer(fresh, "diagnostics", { files: listed }) : undefined,
          refs: await answer(fresh, "references", lang.references),
          // a workspace-wide answer's files outside the program (SPEC §4.3)
          symbols: await answer(fresh, "workspace_symbols", { query: lang.references.symbol }),
        };
        const check = (what: string, a: unknown, b: unknown) => {
          result.compared += 1;
          const x = JSON.stringify(a);
          const y = JSON.stringify(b);
          if (x !== y) result.mismatches.push(`${where}: ${what}\n  long:  ${x}\n  fresh: ${y}`);
        };
        check("diagnostics {file}", comparable(long.file, root), comparable(truth.file, freshRoot));
        check("diagnostics {files}", comparable(long.set, root), comparable(truth.set, freshRoot));
        check(
          "references",
          ...flagged(comparable(long.refs, root), comparable(truth.refs, freshRoot)),
        );
        if (truth.all !== undefined) {
          const {
            complete: _c,
            outside_program,
            outside_program_total,
            ...all
          } = comparable(long.all, root) as Record<string, unknown>;
          const { outside_program: fo, outside_program_total: ft } = comparable(
            truth.symbols,
            freshRoot,
          ) as Record<string, unknown>;
          check(
            "diagnostics {} outside_program",
            [outside_program, outside_program_total],
            [fo, ft],
          );
          const inside = ((all.diagnostics as { file?: string }[]) ?? []).filter(
            (d) => d.file !== undefined && !d.file.startsWith("/"),
          );
          all.diagnostics = inside;
          all.total = inside.length;
          all.files = listed;
          const {
            outside_program: _o,
            outside_program_total: _t,
            ...fresh
          } = comparable(truth.all, freshRoot) as Record<string, unknown>;
          check("diagnostics {} (as {files})", all, fresh);
        }
        // the delta adds up: before − removed + added = now, and carries now's snapshot
        const d = delta as Record<string, unknown>;
        const before = keys(previous.diagnostics);
        for (const r of keys(d.removed)) {
          const at = before.indexOf(r);
          if (at >= 0) before.splice(at, 1);
          else before.push(`removed but never there: ${r}`);
        }
        const summed = [...before, ...keys(d.added)].sort();
        check(
          "{files, since} adds up",
          summed,
          keys((long.set as Record<string, unknown>).diagnostics),
        );
        check(
          "{files, since} snapshot",
          d.snapshot,
          (long.set as Record<string, unknown>).snapshot,
        );
        const { previews, afterPreviews } = await previewOn(
          bridge,
          fresh,
          proposed,
          set,
          listed,
          result,
        );
        for (const [i, p] of proposed.entries()) {
          const truthPreview = await answer(fresh, "diagnostics", { contents: p.contents });
          const what = `preview ${i + 1} (${p.kind} ${p.contents.map((c) => c.file).join(",")})`;
          check(what, comparable(previews[i] as Answer, root), comparable(truthPreview, freshRoot));
        }
        if (afterPreviews !== undefined) {
          check(
            "diagnostics {files} after the previews",
            comparable(afterPreviews as Answer, root),
            comparable(truth.set, freshRoot),
          );
          // nothing written: the files are the model's, no proposed new file exists
          for (const [f, text] of model.texts) {
            if (readFileSync(join(root, f), "utf8") !== text)
              check(`${f} untouched`, "changed", "");
          }
          for (const c of proposed.flatMap((p) => p.contents)) {
            if (!model.texts.has(c.file) && existsSync(join(root, c.file))) {
              check(`${c.file} not created`, "created", "");
            }
          }
        }
        if (renames !== undefined) await renameStep(model, bridge, fresh, renames, where, result);
        previous = long.set as Record<string, unknown>;
      } finally {
        stopping.push(closeFresh(starting));
      }
      opts.log?.(`${where}: ${result.mismatches.length} mismatches so far`);
    }
  } finally {
    await Promise.all(stopping);
    await bridge.close();
  }
  return result;
}
