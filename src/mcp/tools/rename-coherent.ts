/**
 * rename_apply's computation on the files as they are (SPEC §7.3, §5): the rename is
 * computed, then every file it touches and every file of the server's languages changed in
 * this session that mentions the renamed name (the suspects) is synced into the server
 * (opened, or changed to its disk content) and waited for, and the rename is computed
 * again; two computations in a row that agree are the answer. A server that answered from
 * its own stale copy of a file, or never loaded a new one, thus gets every such file before
 * the edit that is written is computed; rename-proof.ts then checks the result.
 */
import { changedSinceComputed } from "../../apply/apply-errors.ts";
import { mentions, overlaps, wordAt } from "../../apply/complete.ts";
import { incompleteError } from "../../apply/incomplete-errors.ts";
import type { FileEdits } from "../../normalize/workspace-edit.ts";
import { awaitLoaded } from "../../session/catch-up.ts";
import type { OpenDocument } from "../../session/documents.ts";
import { lspPositionToOffset } from "../../text/positions.ts";
import { uriToPath } from "../../workspace/uri.ts";
import type { PositionArgs } from "../conventions.ts";
import type { CallContext } from "../tool.ts";
import type { FileCall } from "./common.ts";
import { type ComputedRename, computeRename } from "./rename-compute.ts";
import { renameTooWide } from "./rename-errors.ts";
import { fits, load, unloaded } from "./vouch.ts";

/** Computations before giving up on a workspace that keeps changing. */
const MAX_COMPUTATIONS = 3;

/** A rename computed on the files as they are, and what it was proven against. */
export interface RenameOnDisk {
  files: FileEdits[];
  /** changed files mentioning a renamed name: open with their disk content for `files` */
  suspects: string[];
  /** the names renamed: the word at the position, and what the edit there replaces */
  names: string[];
}

function targetsOf(files: FileEdits[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const abs = uriToPath(f.uri);
    if (abs !== null) out.push(abs); // a non-file target: refused when the edit is planned
  }
  return out;
}

/** The names the rename replaces, read in the call's own document at the position. */
function renamedNames(call: FileCall, computed: ComputedRename): string[] {
  const { doc } = call;
  const enc = call.session.process.encoding;
  const names = new Set<string>();
  const at = lspPositionToOffset(doc.index, computed.at, enc);
  const word = at === undefined ? undefined : wordAt(doc.text, at);
  if (word !== undefined) names.add(word);
  const here = { start: computed.at, end: computed.at };
  for (const f of computed.files) {
    if (uriToPath(f.uri) !== doc.abs) continue;
    for (const e of f.edits) {
      if (!overlaps(e.range, here) && !overlaps(here, e.range)) continue;
      const start = lspPositionToOffset(doc.index, e.range.start, enc);
      const end = lspPositionToOffset(doc.index, e.range.end, enc);
      const replaced = start === undefined || end === undefined ? "" : doc.text.slice(start, end);
      if (replaced.trim() !== "" && replaced.length <= 256) names.add(replaced);
    }
  }
  return [...names];
}

/**
 * The files of the server's languages changed in this session that mention a renamed name
 * on disk (every changed one when no name is known). The record must be whole.
 */
function suspectsOf(call: FileCall, names: string[]): string[] {
  const why = call.session.disk.untracked();
  if (why !== null) throw incompleteError("untracked", [], { detail: why });
  return call.session.changedFiles.since(0).filter((abs) => {
    const text = call.session.workspace.tryRead(abs)?.text;
    return text !== undefined && (names.length === 0 || mentions(text, names));
  });
}

/**
 * Every target and suspect synced into the server, with the call's own file: all open at
 * once, or refused before anything is sent — targets that do not fit are `EditInvalid` (the
 * rename is too wide), suspects that do not fit `EditIncomplete` naming them.
 */
function loadAll(call: FileCall, files: FileEdits[], suspects: string[]): Promise<OpenDocument[]> {
  const targets = targetsOf(files);
  const max = call.session.bridge.max_open_documents;
  const needed = new Set([call.doc.abs, ...targets]);
  if (!fits(call.session, needed)) {
    throw renameTooWide(needed.size, max);
  }
  if (!fits(call.session, [...needed, ...suspects])) {
    const missing = unloaded(call.session, suspects);
    throw incompleteError("not_loaded", missing.length > 0 ? missing : suspects, {
      detail: `with the ${needed.size} files the rename edits, more than bridge.max_open_documents = ${max}`,
    });
  }
  return load(call.session, [...targets, ...suspects]);
}

function same(a: FileEdits[], b: FileEdits[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function computeRenameOnDisk(
  ctx: CallContext,
  call: FileCall,
  args: PositionArgs & { new_name: string },
): Promise<RenameOnDisk> {
  const first = await computeRename(ctx, call, args);
  const names = renamedNames(call, first);
  const suspects = suspectsOf(call, names);
  let files = first.files;
  for (let computed = 1; ; computed++) {
    const sent = await loadAll(call, files, suspects);
    // every target and suspect was already the server's open copy of the disk
    if (sent.length === 0) return { files, suspects, names };
    if (computed >= MAX_COMPUTATIONS) {
      throw changedSinceComputed(
        sent.map((d) => call.session.workspace.display(d.abs)).sort(),
        "the files kept changing while the rename was computed; call rename_apply again",
      );
    }
    await awaitLoaded(call.session, sent, call.wait);
    const again = (await computeRename(ctx, call, args)).files;
    if (same(again, files)) return { files: again, suspects, names };
    files = again;
  }
}
