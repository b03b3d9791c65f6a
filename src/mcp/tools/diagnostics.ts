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
  canonicalOrder,
  measureDiagnostics,
  pagedAnswer,
  type ReportItems,
  sinceAnswer,
  textDigests,
} from "../../normalize/diagnostics-answer.ts";
import { textUnder } from "../../normalize/diagnostics-diff.ts";
import { compareStrings } from "../../normalize/order.ts";
import type { NormalizeContext } from "../../normalize/types.ts";
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
import { TimeSlices } from "../../time-slice.ts";
import type { OutsideProgram } from "../../workspace/program.ts";
import {
  checkPaging,
  fileArg,
  locFields,
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

/** A collected result before ordering, paging or comparing. */
interface Collected {
  /** each file's report, normalized, with the digests of the texts under its items */
  reports: ReportItems[];
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

function collected(): Collected {
  return {
    reports: [],
    files: [],
    unsettled: [],
    restarted: [],
    unwatched: 0,
    unconverted: new Set(),
    outside: [],
    outsideTotal: 0,
  };
}

/**
 * A file's report in the result: its diagnostics normalized, the digest of the text under
 * each from the session's view of the file, its name, and why it may be stale.
 */
async function collect(
  ctx: CallContext,
  session: Session,
  d: FileDiagnostics,
  norm: NormalizeContext,
  into: Collected,
  slices: TimeSlices,
): Promise<string> {
  const target = norm.toTarget(d.uri);
  const file = "file" in target ? target.file : target.uri;
  if (d.unsettled !== undefined) into.unsettled.push({ file, reason: d.unsettled });
  if (!d.push?.length && !d.pull?.length) return file;
  // every item of a report is in its file: one text, read before any turn of the loop
  let text: string | undefined;
  if ("file" in target) {
    const abs = isAbsolute(target.file) ? target.file : join(session.workspace.root, target.file);
    text = sessionTextReader(session)(abs);
  }
  // converted within the call's budget for line tables (SPEC §5.1)
  const items = await norm.convert(() => normalizeDiagnostics(d.uri, d.push, d.pull, norm, slices));
  for (const f of norm.unconverted()) into.unconverted.add(f);
  if (items.length === 0) return file;
  // a file whose positions stayed the server's has no text under its items in the key
  const converted = "file" in target && !into.unconverted.has(target.file);
  const index = converted && text !== undefined ? new LineIndex(text) : undefined;
  const unit = ctx.bridge.config.bridge.column_unit;
  const texts = await textDigests(items, (item) => textUnder(index, item, unit), slices);
  into.reports.push({ target, items, texts });
  return file;
}

/** `file` / `files`: each synced and settled; the same file named twice counts once. */
async function collectFiles(
  ctx: CallContext,
  args: { workspace?: string | undefined; server?: string | undefined },
  names: string[],
  slices: TimeSlices,
): Promise<Collected> {
  const out = collected();
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
      const d = await fileDiagnostics(call.session, call.doc, call.wait);
      await collect(ctx, call.session, d, call.norm, out, slices);
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
  slices: TimeSlices,
): Promise<Collected> {
  const { config, sessions } = ctx.bridge;
  const ws = resolveWorkspace(config, args.workspace);
  const servers = candidateServers(config, ws, { server: args.server, role: "diagnostics" });
  const wait = waitContext(ctx);
  const out = collected();
  const files = new Set<string>();
  let complete = true;
  for (const server of servers) {
    const session = sessions.get(ws.name, server.name);
    await sessions.use(session, wait, async (s) => {
      const norm = normalizeContext(ctx, s);
      const reports = await workspaceDiagnostics(s, wait);
      // a report the session could not keep whole (SPEC §8) makes the answer partial
      complete &&= offersWorkspacePull(s) && !s.diagnostics.incomplete();
      for (const d of reports) files.add(await collect(ctx, s, d, norm, out, slices));
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

/** A result's fields besides its lists of diagnostics, in their order. */
function resultFields(c: Collected, snapshot: string) {
  return {
    files: c.files,
    ...(c.complete !== undefined ? { complete: c.complete } : {}),
    ...settledness(c),
    ...unconvertedField([...c.unconverted].sort(compareStrings)),
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
    // one object per call: the call's long loops yield to the event loop (SPEC §8.2)
    const slices = new TimeSlices();
    const c = names
      ? await collectFiles(ctx, args, names, slices)
      : await collectWorkspace(ctx, args, slices);
    const ordered = await canonicalOrder(c.reports, slices);
    c.reports.length = 0;
    const m = await measureDiagnostics(c.files, c.complete, ordered, slices);
    ctx.bridge.built(m.bytes);
    const fields = resultFields(c, m.snapshot);
    const { max_result_bytes: maxBytes, max_limit: maxLimit } = ctx.bridge.config.bridge;
    const covered = new Set(c.files);
    const answer =
      before === undefined
        ? pagedAnswer(m, fields, paging, { maxBytes, maxLimit })
        : await sinceAnswer(before, m, fields, (f) => !names || covered.has(f), maxBytes, slices);
    // kept once answered: ResultTooLarge gives out no snapshot to come back with
    store.put(m.snapshot, m.keyed);
    return answer;
  },
});
