import { z } from "zod";
import {
  canonicalOrder,
  measureDiagnostics,
  pagedAnswer,
  sinceAnswer,
} from "../../normalize/diagnostics-answer.ts";
import { compareStrings } from "../../normalize/order.ts";
import { candidateServers, resolveWorkspace } from "../../router.ts";
import { fileDiagnostics, offersWorkspacePull } from "../../session/diagnostics-settle.ts";
import { workspaceDiagnostics } from "../../session/workspace-diagnostics.ts";
import { FILES_AT_ONCE, sideBySide } from "../../side-by-side.ts";
import { TimeSlices } from "../../time-slice.ts";
import {
  checkPaging,
  fileArg,
  locFields,
  pagingShape,
  serverArg,
  workspaceArg,
} from "../conventions.ts";
import { type CallContext, defineTool, READ_ONLY } from "../tool.ts";
import { normalizeContext, unprovenEntries, waitContext, withFile } from "./common.ts";
import { contentsWith } from "./contents-errors.ts";
import {
  type Collected,
  collect,
  collected,
  noteLimits,
  resultFields,
} from "./diagnostics-collect.ts";
import { contentsArg, previewAnswer } from "./diagnostics-preview.ts";
import { combinationRefused, snapshotUnknown } from "./tool-errors.ts";

/** At most this many files in one call (SPEC §6.1). */
export const MAX_FILES = 64;

const input = z
  .object({
    workspace: workspaceArg,
    server: serverArg,
    file: fileArg.optional(),
    files: z.array(fileArg).min(1).max(MAX_FILES).optional().describe("Instead of `file`."),
    since: z.string().min(1).max(64).optional(),
    ...pagingShape,
    contents: contentsArg.optional(),
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
  // what a preview leaves out: {server, channel: "push", runs} or {server, channel: "disk",
  // files, reason}; past the cap whole, its diagnostics omitted, the delta whole (SPEC §6.2)
  uncovered: z.array(z.object({})).optional(),
  diagnostics_omitted: z.boolean().optional(),
  snapshot: z.string(),
});

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
      noteLimits(out, call.session);
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
      noteLimits(out, s);
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

export const diagnosticsTool = defineTool({
  name: "diagnostics",
  title: "Diagnostics",
  description:
    "Errors and warnings of `file`/`files` (synced, settled), else the workspace's. `since`: a result's `snapshot`, for what was added and removed; `contents`: proposed texts, as if written.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    if (args.contents !== undefined) {
      const given = (["file", "since", "limit", "offset"] as const).find(
        (k) => args[k] !== undefined,
      );
      if (given !== undefined) throw contentsWith(given);
      const p = await previewAnswer(ctx, args, args.contents, new TimeSlices());
      ctx.bridge.snapshots.put(p.snapshot, p.keyed);
      return p.answer;
    }
    if (args.file !== undefined && args.files !== undefined) {
      throw combinationRefused("give `file` or `files`, not both", "put every file in `files`");
    }
    if (args.since !== undefined && (args.limit !== undefined || args.offset !== undefined)) {
      throw combinationRefused(
        "`since` answers are not paged",
        "drop `limit` and `offset`, or narrow `files`",
      );
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
