/**
 * `diagnostics {contents}` — check before write (SPEC §6.2): what the servers report with
 * proposed texts in place of files (new files too), and what that adds and removes against
 * the same files as they are on disk. Nothing is written. Every entry is checked before any
 * server is asked (preview-contents.ts, the file checks, routing); then each session is held
 * alone while its texts are in (session/preview.ts), and the disk's texts are back before
 * anything else runs on it.
 */
import { readdirSync } from "node:fs";
import { extname, join } from "node:path";
import { z } from "zod";
import { shebangInterpreter } from "../../config/server-files.ts";
import { BridgeError } from "../../errors.ts";
import {
  canonicalOrder,
  measureDiagnostics,
  type SizedAnswer,
  sinceAnswer,
} from "../../normalize/diagnostics-answer.ts";
import type { KeyedDiagnostics } from "../../normalize/diagnostics-diff.ts";
import { compareStrings } from "../../normalize/order.ts";
import { routeOne } from "../../router.ts";
import { Preview, type Proposed, uncoveredChannel } from "../../session/preview.ts";
import {
  type DiskUncovered,
  diskUncovered,
  type HoldsSource,
  type ProposedFile,
} from "../../session/preview-cover.ts";
import type { Session } from "../../session/session.ts";
import type { TimeSlices } from "../../time-slice.ts";
import { uriToPath } from "../../workspace/uri.ts";
import { fileArg } from "../conventions.ts";
import type { CallContext } from "../tool.ts";
import { normalizeContext, unprovenEntries, waitContext } from "./common.ts";
import { tooManyOpen } from "./contents-errors.ts";
import {
  type Collected,
  collect,
  collected,
  noteLimits,
  resultFields,
} from "./diagnostics-collect.ts";
import { type Content, checkOnce, checkSizes, MAX_CONTENTS } from "./preview-contents.ts";

export const contentsArg = z
  .array(z.object({ file: fileArg, text: z.string() }).strict())
  .min(1)
  .max(MAX_CONTENTS);

/** What a preview leaves out: a server's runs over the disk, or files it reads from disk. */
export type Uncovered = { server: string; channel: "push"; runs: string[] } | DiskUncovered;

interface Planned {
  session: Session;
  proposed: Proposed[];
  /** files on disk to check with the proposed texts in (`files`): their dependents */
  also: string[];
}

type Args = {
  workspace?: string | undefined;
  server?: string | undefined;
  files?: string[] | undefined;
};

/**
 * Every entry checked and routed; grouped by session, in the order first named; and what
 * the workspace's servers will not be shown (preview-cover.ts).
 */
function plan(
  ctx: CallContext,
  args: Args,
  contents: readonly Content[],
): { planned: Planned[]; disk: DiskUncovered[] } {
  const { config, sessions } = ctx.bridge;
  checkSizes(contents, config.bridge.max_file_bytes);
  const ws = ctx.bridge.workspace(args.workspace);
  const resolved = contents.map((c) => ws.resolveMaybeNew(c.file));
  checkOnce(
    contents,
    resolved.map((r) => r.rel),
  );
  const planned = new Map<Session, Planned>();
  const entry = (abs: string, interpreter: string | undefined): Planned => {
    const route = { server: args.server, file: abs, interpreter, role: "diagnostics" as const };
    const session = sessions.get(ws.name, routeOne(config, ws.config, route).name);
    const p = planned.get(session) ?? { session, proposed: [], also: [] };
    planned.set(session, p);
    return p;
  };
  const routed: ProposedFile[] = [];
  for (const [i, r] of resolved.entries()) {
    const text = contents[i]?.text ?? "";
    // a file without an extension is routed by its proposed `#!` line (SPEC §4.5)
    const first = text.slice(0, 256).split("\n")[0] ?? "";
    const interpreter = extname(r.abs) === "" ? shebangInterpreter(first) : undefined;
    const p = entry(r.abs, interpreter);
    p.proposed.push({ abs: r.abs, text });
    routed.push({ rel: r.rel, server: p.session.server.name, exists: r.exists });
  }
  const proposedPaths = new Set(resolved.map((r) => r.abs));
  for (const file of args.files ?? []) {
    const { abs } = ws.resolve(file);
    if (!proposedPaths.has(abs)) entry(abs, undefined).also.push(abs);
  }
  const max = config.bridge.max_open_documents;
  for (const p of planned.values()) {
    const open = p.proposed.length + p.also.length;
    if (open > max) throw tooManyOpen(open, max);
  }
  // the servers whose diagnostics the written files may change
  const servers = config.servers.filter(
    (sv) => ws.config.servers.includes(sv.name) && sv.roles.includes("diagnostics"),
  );
  const disk = diskUncovered(servers, routed, holdsSourceIn(ws.rootReal));
  return { planned: [...planned.values()], disk };
}

/** The preview's answer and the disk's, collected per session, and what none could cover. */
async function collectPreview(
  ctx: CallContext,
  args: Args,
  contents: readonly Content[],
  slices: TimeSlices,
): Promise<{ preview: Collected; disk: Collected; uncovered: Uncovered[] }> {
  const { planned, disk: unread } = plan(ctx, args, contents);
  const preview = collected();
  const disk = collected();
  const uncovered: Uncovered[] = [...unread];
  const wait = waitContext(ctx);
  const files = new Set<string>();
  // with `files`, the answer is about the proposed files and those alone (its pages)
  const only =
    args.files === undefined
      ? undefined
      : new Set(planned.flatMap((p) => [...p.also, ...p.proposed.map((x) => x.abs)]));
  for (const { session, proposed, also } of planned) {
    await ctx.bridge.sessions.alone(session, wait, async (s) => {
      const p = new Preview(s, proposed, also);
      const paths: string[] = [];
      try {
        const all = await p.diagnose(wait);
        const reports =
          only === undefined ? all : all.filter((d) => only.has(uriToPath(d.uri) ?? ""));
        // positions and texts are the proposed ones: converted while they are in
        const norm = normalizeContext(ctx, s);
        for (const d of reports) {
          files.add(await collect(ctx, s, d, norm, preview, slices));
          const abs = uriToPath(d.uri);
          if (abs !== null) paths.push(abs);
        }
      } finally {
        p.restore();
      }
      const norm = normalizeContext(ctx, s);
      for (const d of await p.baseline(paths, wait)) await collect(ctx, s, d, norm, disk, slices);
      noteLimits(preview, s);
      preview.unsettled.push(...unprovenEntries(s).entries);
      const channel = uncoveredChannel(s);
      if (channel !== undefined) {
        uncovered.push({
          server: s.server.name,
          channel,
          runs: [...(s.runs?.sources ?? [])],
        });
      }
    });
  }
  preview.restarted.push(...(wait.restarted ?? []));
  preview.files = [...files].sort();
  disk.files = preview.files;
  return { preview, disk, uncovered };
}

/**
 * The answer: every diagnostic with the proposed texts, and `added`/`removed` against the
 * disk's answer for the same files, measured whole (SPEC §4.4); `snapshot` is the
 * preview's. The snapshot is returned for the caller to keep.
 */
export async function previewAnswer(
  ctx: CallContext,
  args: Args,
  contents: readonly Content[],
  slices: TimeSlices,
): Promise<{ answer: SizedAnswer; snapshot: string; keyed: KeyedDiagnostics }> {
  const { preview, disk, uncovered } = await collectPreview(ctx, args, contents, slices);
  const before = await measureDiagnostics(
    disk.files,
    undefined,
    await canonicalOrder(disk.reports, slices),
    slices,
  );
  const m = await measureDiagnostics(
    preview.files,
    undefined,
    await canonicalOrder(preview.reports, slices),
    slices,
  );
  ctx.bridge.built(m.bytes + before.bytes);
  uncovered.sort(
    (a, b) => compareStrings(a.server, b.server) || compareStrings(a.channel, b.channel),
  );
  const extra = uncovered.length > 0 ? { uncovered } : {};
  const fields = resultFields(preview, m.snapshot, extra);
  const maxBytes = ctx.bridge.config.bridge.max_result_bytes;
  const delta = (whole: boolean, more = {}) =>
    sinceAnswer(before.keyed, m, { ...more, ...fields }, () => true, maxBytes, slices, whole);
  try {
    return { answer: await delta(true), snapshot: m.snapshot, keyed: m.keyed };
  } catch (err) {
    if (!(err instanceof BridgeError) || err.code !== "ResultTooLarge") throw err;
    // past the cap whole, the delta alone when it fits: what a gate asks (SPEC §6.2)
    const omitted = { diagnostics: [], total: m.keyed.items.length, diagnostics_omitted: true };
    const answer = await delta(false, omitted).catch(() => Promise.reject(err));
    return { answer, snapshot: m.snapshot, keyed: m.keyed };
  }
}

/** Directory listings for preview-cover.ts, each read once (names only, never followed). */
function holdsSourceIn(root: string): HoldsSource {
  const listed = new Map<string, string[]>();
  return (dir, exts) => {
    let names = listed.get(dir);
    if (names === undefined) {
      try {
        names = readdirSync(join(root, dir), { withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name);
      } catch {
        names = []; // not there yet (a new file's directory)
      }
      listed.set(dir, names);
    }
    return names.some((n) => exts.has(extname(n).slice(1)));
  };
}
