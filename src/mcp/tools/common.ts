/**
 * What the file tools share: resolving workspace → file → server → ready
 * session → synced document (SPEC §4.2, §4.5). Tool files stay thin on top of
 * this; argument schemas live in ../conventions.ts, positions in ./position.ts.
 */
import { existsSync } from "node:fs";
import { extname, isAbsolute, join } from "node:path";
import { shebangInterpreter } from "../../config/server-files.ts";
import type { Role } from "../../config/types.ts";
import { isBridgeError } from "../../errors.ts";
import { compareStrings } from "../../normalize/order.ts";
import { makeNormalizeContext } from "../../normalize/range-converter.ts";
import type { NormalizeContext } from "../../normalize/types.ts";
import { routeOne } from "../../router.ts";
import { documentRefresh } from "../../session/catch-up.ts";
import { UNPROVEN_REASON } from "../../session/disk-changes.ts";
import type { OpenDocument } from "../../session/documents.ts";
import type { LspRequest } from "../../session/rpc.ts";
import type { Session, WaitContext } from "../../session/session.ts";
import { lacksCapability } from "../../session/session-errors.ts";
import type { LineModel } from "../../text/line-model.ts";
import type { OpenFiles } from "../../workspace/call-lines.ts";
import { OUTSIDE_NAMED, type OutsideProgram } from "../../workspace/program.ts";
import type { FileArgs } from "../conventions.ts";
import type { CallContext } from "../tool.ts";

/** A file this large is worked on in a turn of the event loop of its own. */
export const LARGE_FILE_BYTES = 1024 * 1024;

export interface FileCall {
  session: Session;
  doc: OpenDocument;
  rel: string;
  /** converts the server's answers */
  norm: NormalizeContext;
  /** converts its renames' edits, which computeRename puts in the lines it reads (SPEC §5) */
  renameNorm: NormalizeContext;
  wait: WaitContext;
}

export function waitContext(ctx: CallContext): WaitContext {
  return {
    signal: ctx.signal,
    onProgress: (message) => ctx.progress({ progress: 0, message }),
    restarted: [],
  };
}

/**
 * workspace → file checks → route → ready session → document synced, then `fn`.
 * File checks come first: a bad path never starts a server.
 */
export async function withFile<T>(
  ctx: CallContext,
  args: FileArgs,
  role: Role,
  fn: (call: FileCall) => Promise<T>,
): Promise<T> {
  const { config, sessions } = ctx.bridge;
  const ws = ctx.bridge.workspace(args.workspace);
  const wait = waitContext(ctx);
  const resolved = ws.resolve(args.file);
  // a file without an extension may be routed by its `#!` line (SPEC §4.5): read it first
  const script = extname(resolved.abs) === "" ? ws.read(resolved.abs, resolved) : undefined;
  const interpreter = script && shebangInterpreter(script.text.slice(0, 256).split("\n")[0] ?? "");
  const server = routeOne(config, ws.config, {
    server: args.server,
    file: resolved.abs,
    interpreter,
    role,
  });
  const session = sessions.get(ws.name, server.name);
  // read beneath the root (SPEC §8.1): what is read is what the path names now — up front,
  // so a file that cannot be read starts no server; a file the session holds open is
  // compared with its document once the disk was followed, and read only if it changed
  const read =
    session.documents.byPath(resolved.abs) !== undefined
      ? undefined
      : (script ?? ws.read(resolved.abs, resolved));
  const target = read ?? resolved;
  // a large file's tables and JSON size take a turn to themselves: calls on large files that
  // arrive together are spread over turns, and pings are read between (SPEC §8.2)
  const large = (read?.bytes ?? 0) > LARGE_FILE_BYTES;
  return sessions.use(session, wait, async (s) => {
    if (large) await ws.turns.next();
    // the rest of the workspace followed the disk already (SPEC §5); now this file
    const doc = await s.documents.target(target, documentRefresh(s, role), wait.signal);
    const norm = normalizeContext(ctx, s, s.answerLines, doc.abs);
    const renameNorm =
      s.lines.key === s.answerLines.key ? norm : normalizeContext(ctx, s, s.lines, doc.abs);
    return fn({ session: s, doc, rel: resolved.rel, norm, renameNorm, wait });
  });
}

/**
 * The current text of a file for a session: its open document, else the disk — read
 * beneath the workspace root only (SPEC §8.1: server-named paths are untrusted).
 */
export function sessionTextReader(session: Session): (abs: string) => string | undefined {
  return (abs) => session.documents.byPath(abs)?.text ?? session.workspace.tryRead(abs)?.text;
}

/**
 * A call's conversion of server positions counted in `model` (by default as its answers
 * are, SPEC §5) to the client's; `own`: the path of the call's own document, whose table
 * the call's budget does not pay for (every bridge has it open, SPEC §5.1).
 */
export function normalizeContext(
  ctx: CallContext,
  session: Session,
  model: LineModel = session.answerLines,
  own?: string,
): NormalizeContext {
  const ws = session.workspace;
  // the server answered against the open document's text; other files as on disk now,
  // read only beneath the workspace root (server-named paths are untrusted), within the
  // call's budget (SPEC §5.1)
  const docs = session.documents;
  const open: OpenFiles = {
    paths: docs.openPaths,
    lines: (abs) => {
      const doc = docs.byPath(abs);
      if (doc === undefined || model.key === session.answerLines.key) return doc;
      return { ...doc, index: doc.index.withAnswers(model) };
    },
  };
  return makeNormalizeContext({
    root: ws.root,
    rootReal: ws.rootReal,
    encoding: session.process.encoding,
    unit: ctx.bridge.config.bridge.column_unit,
    model,
    tables: ws.callLines(model, open, own),
    names: ws.uriNames,
  });
}

/**
 * `unconverted: [files]` for an answer holding positions the bridge did not convert (past
 * the call's budget, SPEC §5.1): those `items` (the items answered) name, or all.
 */
export function unconvertedField(
  unconverted: readonly string[],
  items?: readonly object[],
): { unconverted?: string[] } {
  let list = unconverted;
  if (items !== undefined && list.length > 0) {
    const named = new Set(
      items.flatMap((i) => ("file" in i && typeof i.file === "string" ? [i.file] : [])),
    );
    list = list.filter((f) => named.has(f));
  }
  return list.length > 0 ? { unconverted: [...list] } : {};
}

/**
 * Whether a file a result names (workspace-relative, or absolute) still exists: one the
 * call's conversion just found needs no second look (`norm`).
 */
export function fileExists(session: Session, norm?: NormalizeContext): (file: string) => boolean {
  const root = session.workspace.rootReal;
  return (file) =>
    norm?.found(file) === true || existsSync(isAbsolute(file) ? file : join(root, file));
}

/**
 * Directories the session's server asks about that the watcher does not watch (past
 * bridge.max_watches, paths too long): changes there reach it unseen (SPEC §5.2).
 */
function unwatchedCount(session: Session): number {
  return session.disk.unwatched();
}

/** `unwatched: n` for an answer that may depend on directories not watched (SPEC §4.3). */
export function unwatchedField(count: number): { unwatched?: number } {
  return count > 0 ? { unwatched: count } : {};
}

/** What a session's answer may not reflect, as fields (SPEC §4.3). */
export interface SessionMarks {
  /** directories the server asks about that are not watched */
  unwatched?: number;
  /** false once a change the server is not known to follow happened (`unproven = "mark"`) */
  settled?: false;
  unsettled?: { file: string; reason: string }[];
  /** how many such changes, when more than `unsettled` names */
  unsettled_total?: number;
  /** dependencies outside the root its configuration names that are not watched */
  outside_unwatched?: string[];
  /** files the server does not see as part of the whole program, and why */
  outside_program?: OutsideProgram[];
  /** how many such files, when more than `outside_program` names */
  outside_program_total?: number;
}

/** A session's unproven changes as `unsettled` entries (SPEC §5.3), and their count. */
export function unprovenEntries(session: Session): {
  entries: { file: string; reason: string }[];
  total: number;
} {
  const marks = session.disk.unsettled();
  if (marks === null) return { entries: [], total: 0 };
  return {
    entries: marks.files.map((file) => ({ file, reason: UNPROVEN_REASON })),
    total: marks.count,
  };
}

/**
 * `outside_program` for an answer about these files (SPEC §4.3): each file and reason once,
 * sorted, at most OUTSIDE_NAMED, with `outside_program_total` when `total` is more.
 */
export function outsideProgramField(
  entries: readonly OutsideProgram[],
  total = 0,
): Pick<SessionMarks, "outside_program" | "outside_program_total"> {
  const once = new Map(entries.map((e) => [`${e.file}\0${e.reason}`, e]));
  const all = [...once.values()].sort(
    (a, b) => compareStrings(a.file, b.file) || compareStrings(a.reason, b.reason),
  );
  const count = Math.max(total, all.length);
  if (count === 0) return {};
  const named = all.slice(0, OUTSIDE_NAMED);
  return {
    outside_program: named,
    ...(count > named.length ? { outside_program_total: count } : {}),
  };
}

/**
 * The marks every answer from `session` about the call's `file` (workspace-relative) carries:
 * `unwatched` (SPEC §5.2); for a change the server is not known to follow, `settled: false`
 * with the files in `unsettled` (SPEC §5.3); and `outside_program` when the server does not
 * see the file as part of the whole program (SPEC §4.3). None when nothing limits the answer.
 */
export function sessionMarks(session: Session, file: string): SessionMarks {
  const outside = session.program.outside(file);
  return { ...workspaceLimits(session), ...outsideProgramField(outside ? [outside] : []) };
}

/**
 * The marks of an answer about a symbol's uses across files (references, implementation,
 * call_hierarchy, rename): as `sessionMarks`, with the workspace's files outside the
 * program, whose uses the server sees only while it holds them open (SPEC §4.3).
 */
export async function usesMarks(session: Session, file: string): Promise<SessionMarks> {
  const survey = await session.program.survey();
  const outside = session.program.outside(file);
  const entries = outside ? [outside, ...survey.files] : survey.files;
  return { ...workspaceLimits(session), ...outsideProgramField(entries, survey.total) };
}

/**
 * The marks of a workspace-wide answer (workspace_symbols): as `sessionMarks`, with the
 * workspace's files the server does not see as part of the program (SPEC §4.3).
 */
export async function workspaceMarks(session: Session): Promise<SessionMarks> {
  const survey = await session.program.survey();
  return { ...workspaceLimits(session), ...outsideProgramField(survey.files, survey.total) };
}

/** What limits every answer of the session, whatever it is about (SPEC §5.2, §5.3). */
function workspaceLimits(session: Session): SessionMarks {
  const { entries, total } = unprovenEntries(session);
  const outside = session.disk.outsideUnwatched();
  const outsideField = outside.length > 0 ? { outside_unwatched: outside } : {};
  if (entries.length === 0) return { ...unwatchedField(unwatchedCount(session)), ...outsideField };
  return {
    ...unwatchedField(unwatchedCount(session)),
    settled: false,
    unsettled: entries,
    ...(total > entries.length ? { unsettled_total: total } : {}),
    ...outsideField,
  };
}

/** `vanished: n` for a result that dropped items in files that no longer exist. */
export function vanishedField(vanished: number): { vanished?: number } {
  return vanished > 0 ? { vanished } : {};
}

/** JSON-RPC "method not found": a server that offers the provider but not this method. */
const METHOD_NOT_FOUND = -32601;

/**
 * A request a server may turn away though it offers the provider (clangd 14 answers
 * callHierarchy/outgoingCalls and textDocument/prepareTypeHierarchy so): MethodNotFound is
 * ServerLacksCapability.
 */
export async function requestOrLacks<P, R>(
  call: FileCall,
  request: LspRequest<P, R>,
  params: P,
): Promise<R> {
  try {
    return await call.session.request(request, params, call.wait);
  } catch (err) {
    if (isBridgeError(err, "ServerError") && err.details?.lsp_code === METHOD_NOT_FOUND) {
      throw lacksCapability(call.session.server.name, request.method);
    }
    throw err;
  }
}

/**
 * A resolve request (code actions, completion items): the server's own refusal (an LSP
 * error) is undefined, and the item is shown as it came. A timeout, a cancellation or a
 * dead session fails the call: the answer would be wrong, and the next resolve would wait
 * as long again.
 */
export async function resolveOrKeep<P, R>(
  session: Session,
  request: LspRequest<P, R>,
  item: P,
  wait: WaitContext,
): Promise<R | undefined> {
  try {
    return await session.request(request, item, wait);
  } catch (err) {
    if (isBridgeError(err, "ServerError")) return undefined;
    throw err;
  }
}
