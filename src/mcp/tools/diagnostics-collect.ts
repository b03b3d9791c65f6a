/**
 * A diagnostics answer collected (SPEC §6): each file's report normalized, with the digests
 * of the texts under its items, and the marks of the answer; the fields of a result beside
 * its lists. Shared by `diagnostics` and its preview (diagnostics-preview.ts).
 */
import { isAbsolute, join } from "node:path";
import { normalizeDiagnostics } from "../../normalize/diagnostics.ts";
import { type ReportItems, textDigests } from "../../normalize/diagnostics-answer.ts";
import { textUnder } from "../../normalize/diagnostics-diff.ts";
import { compareStrings } from "../../normalize/order.ts";
import type { NormalizeContext } from "../../normalize/types.ts";
import type { FileDiagnostics } from "../../session/diagnostics-settle.ts";
import type { Session } from "../../session/session.ts";
import { LineIndex } from "../../text/line-index.ts";
import type { TimeSlices } from "../../time-slice.ts";
import type { OutsideProgram } from "../../workspace/program.ts";
import type { CallContext } from "../tool.ts";
import {
  outsideProgramField,
  sessionTextReader,
  unconvertedField,
  unwatchedField,
} from "./common.ts";

/** A collected result before ordering, paging or comparing. */
export interface Collected {
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
  /** dependencies outside the root the sessions' answers may depend on, not watched (§5.3) */
  outsideUnwatched: Set<string>;
  /** files whose positions stayed the server's: past a call's budget (SPEC §5.1) */
  unconverted: Set<string>;
  /** files a server does not see as part of the whole program (SPEC §4.3), and how many */
  outside: OutsideProgram[];
  outsideTotal: number;
}

export function collected(): Collected {
  return {
    reports: [],
    files: [],
    unsettled: [],
    restarted: [],
    unwatched: 0,
    outsideUnwatched: new Set(),
    unconverted: new Set(),
    outside: [],
    outsideTotal: 0,
  };
}

/**
 * A file's report in the result: its diagnostics normalized, the digest of the text under
 * each from the session's view of the file, its name, and why it may be stale.
 */
export async function collect(
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

/** What limits every answer of `session` (SPEC §5.2, §5.3), noted once per session asked. */
export function noteLimits(into: Collected, session: Session): void {
  into.unwatched = Math.max(into.unwatched, session.disk.unwatched());
  for (const dep of session.disk.outsideUnwatched()) into.outsideUnwatched.add(dep);
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
export function resultFields(c: Collected, snapshot: string, extra: object = {}) {
  return {
    files: c.files,
    ...(c.complete !== undefined ? { complete: c.complete } : {}),
    ...settledness(c),
    ...unconvertedField([...c.unconverted].sort(compareStrings)),
    ...unwatchedField(c.unwatched),
    ...(c.outsideUnwatched.size > 0
      ? { outside_unwatched: [...c.outsideUnwatched].sort(compareStrings) }
      : {}),
    ...outsideProgramField(c.outside, c.outsideTotal),
    ...extra,
    snapshot,
  };
}
