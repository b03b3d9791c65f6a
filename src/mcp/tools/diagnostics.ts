/**
 * diagnostics (SPEC §4.1, §6): push and pull merged with per-diagnostic
 * channels; for one file or a change set of files (each settled by the
 * server's rule) or, without either, everything reported for the workspace.
 * Every result names the files it covers and carries a `snapshot`; `since` a
 * snapshot answers only what was added and removed (SPEC §6.1).
 */
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { BridgeError } from "../../errors.ts";
import { normalizeDiagnostics } from "../../normalize/diagnostics.ts";
import {
  type DiagnosticsDiff,
  diffDiagnostics,
  type KeyedDiagnostic,
  matchKey,
  snapshotId,
  textUnder,
} from "../../normalize/diagnostics-diff.ts";
import { compareDiagnostic, compareStrings } from "../../normalize/order.ts";
import { page } from "../../normalize/paging.ts";
import type { DiagnosticOut, NormalizeContext } from "../../normalize/types.ts";
import { candidateServers, resolveWorkspace } from "../../router.ts";
import {
  type FileDiagnostics,
  fileDiagnostics,
  offersWorkspacePull,
} from "../../session/diagnostics-settle.ts";
import type { Session } from "../../session/session.ts";
import { workspaceDiagnostics } from "../../session/workspace-diagnostics.ts";
import { FILES_AT_ONCE, sideBySide } from "../../side-by-side.ts";
import { LineIndex } from "../../text/line-index.ts";
import type { OutsideProgram } from "../../workspace/program.ts";
import {
  checkPaging,
  fileArg,
  locFields,
  pagedResult,
  pagingShape,
  serverArg,
  workspaceArg,
} from "../conventions.ts";
import { type CallContext, defineTool, READ_ONLY } from "../tool.ts";
import {
  normalizeContext,
  outsideProgramField,
  sessionTextReader,
  unconvertedField,
  unprovenEntries,
  unwatchedCount,
  unwatchedField,
  waitContext,
  withFile,
} from "./common.ts";

/** At most this many files in one call (SPEC §6.1). */
export const MAX_FILES = 64;

const input = z
  .object({
    workspace: workspaceArg,
    server: serverArg,
    file: fileArg.optional(),
    files: z.array(fileArg).min(1).max(MAX_FILES).optional().describe("Instead of `file`."),
    since: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("A `snapshot` of an earlier call: answer only what was added and removed."),
    ...pagingShape,
  })
  .strict();

const diagnostic = z.object({
  ...locFields,
  severity: z.enum(["error", "warning", "information", "hint"]),
  code: z.string().optional(),
  source: z.string().optional(),
  message: z.string(),
  // notes: {file, line, column, end_line, end_column, message} each
  related: z.array(z.object({})).optional(),
  channels: z.array(z.enum(["pull", "push"])),
});
const count = z.number().int().optional();

const output = z.object({
  diagnostics: z.array(diagnostic).optional(),
  total: count,
  next_offset: count,
  // with `since`; items as in `diagnostics` (one item schema is enough for tools/list)
  added: z.array(z.object({})).optional(),
  removed: z.array(z.object({})).optional(),
  unchanged: count,
  files: z.array(z.string()),
  complete: z.boolean().optional(),
  // only when some file's answer is not proven current: {file, reason} each (SPEC §6)
  settled: z.boolean().optional(),
  unsettled: z.array(z.object({})).optional(),
  // sessions restarted for this answer, and why (SPEC §5.3 `restart_on`)
  restarted: z.array(z.string()).optional(),
  snapshot: z.string(),
});

/** A collected result before paging or comparing: canonical order, keyed for matching. */
interface Collected {
  keyed: KeyedDiagnostic[];
  files: string[];
  /** workspace-wide calls only: whether every server reported on the whole workspace */
  complete?: boolean;
  /** files whose answer is not proven current, with why */
  unsettled: { file: string; reason: string }[];
  /** sessions restarted for this answer (`restart_on`) */
  restarted: string[];
  /** directories the sessions ask about that are not watched (SPEC §5.2), the most of any */
  unwatched: number;
  /** files whose positions stayed the server's: past a call's budget (SPEC §5.1) */
  unconverted: Set<string>;
  /** files a server does not see as part of the whole program (SPEC §4.3), and how many */
  outside: OutsideProgram[];
  outsideTotal: number;
}

function emptyCollected(): Collected {
  return {
    keyed: [],
    files: [],
    unsettled: [],
    restarted: [],
    unwatched: 0,
    unconverted: new Set(),
    outside: [],
    outsideTotal: 0,
  };
}

type Normalized = FileDiagnostics & { items: DiagnosticOut[] };

/** Each file's report with its diagnostics in the client's positions (one conversion). */
function normalized(norm: NormalizeContext, reports: FileDiagnostics[]): Promise<Normalized[]> {
  return norm.convert(() =>
    reports.map((d) => ({ ...d, items: normalizeDiagnostics(d.uri, d.push, d.pull, norm) })),
  );
}

/** A file's report in the result: keyed diagnostics, its name, and why it may be stale. */
function collect(
  ctx: CallContext,
  session: Session,
  d: Normalized,
  norm: NormalizeContext,
  into: Collected,
): string {
  const target = norm.toTarget(d.uri);
  const file = "file" in target ? target.file : target.uri;
  const items = d.items;
  for (const f of norm.unconverted()) into.unconverted.add(f);
  into.keyed.push(...keyAll(ctx, session, items, into.unconverted));
  if (d.unsettled !== undefined) into.unsettled.push({ file, reason: d.unsettled });
  return file;
}

/**
 * Each diagnostic with its match key; texts come from the session's view of each file, one
 * read per file (the links of one file are one); none for a file whose positions stayed
 * the server's (past the call's budget, SPEC §5.1), whose key then holds no text.
 */
function keyAll(
  ctx: CallContext,
  session: Session,
  items: DiagnosticOut[],
  unconverted: ReadonlySet<string>,
): KeyedDiagnostic[] {
  const read = sessionTextReader(session);
  const unit = ctx.bridge.config.bridge.column_unit;
  const indexes = new Map<string, LineIndex | undefined>();
  const byFile = new Map<string, LineIndex | undefined>();
  const indexOf = (d: DiagnosticOut): LineIndex | undefined => {
    if (!("file" in d) || unconverted.has(d.file)) return undefined;
    if (!indexes.has(d.file)) {
      const abs = isAbsolute(d.file) ? d.file : join(session.workspace.root, d.file);
      const id = session.workspace.tryIdentify(abs);
      const file = id === undefined ? `path ${abs}` : `${id.dev}:${id.ino}`;
      if (!byFile.has(file)) {
        const text = read(abs);
        byFile.set(file, text === undefined ? undefined : new LineIndex(text));
      }
      indexes.set(d.file, byFile.get(file));
    }
    return indexes.get(d.file);
  };
  return items.map((item) => ({ item, key: matchKey(item, textUnder(indexOf(item), item, unit)) }));
}

/** `file` / `files`: each synced and settled; the same file named twice counts once. */
async function collectFiles(
  ctx: CallContext,
  args: { workspace?: string | undefined; server?: string | undefined },
  names: string[],
): Promise<Collected> {
  const out = emptyCollected();
  // the same file named twice counts once
  const ws = ctx.bridge.workspace(args.workspace);
  const byRel = new Map<string, string>();
  for (const file of names) {
    const { rel } = ws.resolve(file);
    if (!byRel.has(rel)) byRel.set(rel, file);
  }
  const one = (file: string) =>
    withFile(ctx, { ...args, file }, "diagnostics", async (call) => {
      out.restarted.push(...(call.wait.restarted ?? []));
      out.unwatched = Math.max(out.unwatched, unwatchedCount(call.session));
      out.unsettled.push(...unprovenEntries(call.session).entries);
      const outside = call.session.program.outside(call.rel);
      if (outside !== null) out.outside.push(outside);
      const [d] = await normalized(call.norm, [
        await fileDiagnostics(call.session, call.doc, call.wait),
      ]);
      collect(ctx, call.session, d as Normalized, call.norm, out);
    });
  // the first alone (it may start the session, or restart it); the rest side by side: each
  // is synced and settled on its own, and the server works on them together
  const [first, ...rest] = [...byRel.values()];
  if (first !== undefined) await one(first);
  await sideBySide(rest, FILES_AT_ONCE, one);
  out.files = [...byRel.keys()].sort(compareStrings);
  return out;
}

/** Without a file: what every diagnostics server of the workspace reports (workspace pull where offered). */
async function collectWorkspace(
  ctx: CallContext,
  args: { workspace?: string | undefined; server?: string | undefined },
): Promise<Collected> {
  const { config, sessions } = ctx.bridge;
  const ws = resolveWorkspace(config, args.workspace);
  const servers = candidateServers(config, ws, { server: args.server, role: "diagnostics" });
  const wait = waitContext(ctx);
  const out = emptyCollected();
  const files = new Set<string>();
  let complete = true;
  for (const server of servers) {
    const session = sessions.get(ws.name, server.name);
    await sessions.use(session, wait, async (s) => {
      const norm = normalizeContext(ctx, s);
      const reports = await normalized(norm, await workspaceDiagnostics(s, wait));
      // a report the session could not keep whole (SPEC §8) makes the answer partial
      complete &&= offersWorkspacePull(s) && !s.diagnostics.incomplete();
      for (const d of reports) files.add(collect(ctx, s, d, norm, out));
      out.unwatched = Math.max(out.unwatched, unwatchedCount(s));
      out.unsettled.push(...unprovenEntries(s).entries);
      const survey = await s.program.survey();
      out.outside.push(...survey.files);
      out.outsideTotal += survey.total;
    });
  }
  out.files = [...files].sort(compareStrings);
  out.complete = complete;
  out.restarted.push(...(wait.restarted ?? []));
  return out;
}

function snapshotUnknown(since: string): BridgeError {
  return new BridgeError("SnapshotUnknown", `no diagnostics snapshot "${since}" in this bridge`, {
    hint: "snapshots live in memory (the last 32 results); call diagnostics without `since` for a fresh one",
    details: { since },
  });
}

/** `settled: false` and the files that are not, when any (SPEC §6). */
function settledness(c: Collected) {
  const restarted = c.restarted.length > 0 ? { restarted: [...c.restarted].sort() } : {};
  if (c.unsettled.length === 0) return restarted;
  // one entry per file and reason: several calls of one session carry its marks each
  const once = new Map(c.unsettled.map((u) => [`${u.file}\0${u.reason}`, u]));
  const unsettled = [...once.values()].sort(
    (a, b) => compareStrings(a.file, b.file) || compareStrings(a.reason, b.reason),
  );
  return { settled: false as const, unsettled, ...restarted };
}

function diffResult(diff: DiagnosticsDiff, c: Collected, snapshot: string) {
  return {
    added: diff.added,
    removed: diff.removed,
    unchanged: diff.unchanged,
    files: c.files,
    ...(c.complete !== undefined ? { complete: c.complete } : {}),
    ...settledness(c),
    ...unwatchedField(c.unwatched),
    ...outsideProgramField(c.outside, c.outsideTotal),
    snapshot,
  };
}

export const diagnosticsTool = defineTool({
  name: "diagnostics",
  title: "Diagnostics",
  description:
    "Errors and warnings of `file` or `files` (synced and settled), else all the workspace's servers report. Pass a result's `snapshot` as `since` later for only what was added and removed.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    if (args.file !== undefined && args.files !== undefined) {
      throw new BridgeError("InvalidArgument", "give `file` or `files`, not both", {
        hint: "put every file in `files`",
      });
    }
    if (args.since !== undefined && (args.limit !== undefined || args.offset !== undefined)) {
      throw new BridgeError("InvalidArgument", "`since` answers are not paged", {
        hint: "drop `limit` and `offset`, or narrow `files`",
      });
    }
    const paging = checkPaging(ctx, args);
    const store = ctx.bridge.snapshots;
    const before = args.since === undefined ? undefined : store.get(args.since);
    if (args.since !== undefined && before === undefined) throw snapshotUnknown(args.since);

    const names = args.files ?? (args.file !== undefined ? [args.file] : undefined);
    const c = names ? await collectFiles(ctx, args, names) : await collectWorkspace(ctx, args);
    const keyed = [...c.keyed].sort((a, b) => compareDiagnostic(a.item, b.item));
    const all = keyed.map((k) => k.item);
    const snapshot = snapshotId(c.files, c.complete, keyed);
    store.put(snapshot, { diagnostics: keyed });

    if (before !== undefined) {
      const covered = new Set(c.files);
      const diff = diffDiagnostics(before.diagnostics, keyed, (f) => !names || covered.has(f));
      const changed = [...diff.added, ...diff.removed];
      return {
        result: diffResult(diff, c, snapshot),
        count: changed.length,
        summaryItems: changed,
      };
    }
    const p = page(all, paging);
    const result: Record<string, unknown> = { ...pagedResult("diagnostics", p), files: c.files };
    if (c.complete !== undefined) result.complete = c.complete;
    const unconverted = [...c.unconverted].sort(compareStrings);
    Object.assign(result, settledness(c), unconvertedField(unconverted, p.items));
    Object.assign(
      result,
      unwatchedField(c.unwatched),
      outsideProgramField(c.outside, c.outsideTotal),
    );
    result.snapshot = snapshot;
    return {
      result,
      count: p.items.length,
      pages: { key: "diagnostics", items: all, offset: paging.offset },
    };
  },
});
