/**
 * The line tables one call's answer is converted with (SPEC §5.1, §8.2), within a byte
 * budget. Every distinct file the answer names — a file is its device and inode, so the
 * links of one file are one — counts its size against the budget in a canonical order
 * (paths sorted), whether its table is cached, open or read now: a bridge started afresh
 * converts the same files and gives the same bytes. A file past the budget is not read;
 * its positions stay the server's, and the answer names it. Files are read one per turn
 * of the event loop, so the bridge answers pings and other calls between them.
 */
import type { FileLines } from "../text/line-columns.ts";
import type { LineIndex } from "../text/line-index.ts";
import type { LineModel } from "../text/line-model.ts";
import type { FileIdentity } from "./confined.ts";
import { fileKey, type LineTables } from "./line-tables.ts";

/** What one call may convert: the sizes of its distinct files, summed in canonical order. */
export const CALL_BUDGET_BYTES = 32 * 1024 * 1024;

/** An open document the session holds for a path: its table and identity (SPEC §5.1). */
export interface OpenLines {
  index: LineIndex;
  text: string;
  identity: FileIdentity | null;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class CallLines {
  private readonly byPath = new Map<string, FileLines>();
  /** by file (device and inode): the links of one file share one table and one count */
  private readonly byFile = new Map<string, FileLines>();
  private spent = 0;

  constructor(
    private readonly tables: LineTables,
    /** where the session's server breaks lines */
    private readonly model: LineModel,
    private readonly budgetBytes: number,
    /** the session's open document for a path, whose table is the server's view */
    private readonly open: (abs: string) => OpenLines | undefined,
  ) {}

  /** The tables of every file in `paths`, in canonical order, one read per turn. */
  async load(paths: Iterable<string>): Promise<void> {
    for (const abs of [...new Set(paths)].sort()) {
      if (this.byPath.has(abs)) continue;
      if (this.resolve(abs)) await nextTurn();
    }
  }

  /** A file's lines for this call (one `load` did not name is taken now, in turn). */
  get(abs: string): FileLines {
    if (!this.byPath.has(abs)) this.resolve(abs);
    return this.byPath.get(abs);
  }

  /** Decide a path's lines; whether a file was read for it. */
  private resolve(abs: string): boolean {
    const doc = this.open(abs);
    const identity = doc !== undefined ? doc.identity : this.tables.identity(abs);
    if (doc === undefined && identity === undefined) {
      this.byPath.set(abs, undefined);
      return false;
    }
    const file = identity ? fileKey(identity) : `path ${abs}`;
    if (this.byFile.has(file)) {
      this.byPath.set(abs, this.byFile.get(file));
      return false;
    }
    const size = identity?.size ?? Buffer.byteLength(doc?.text ?? "");
    if (this.spent + size > this.budgetBytes) {
      this.byFile.set(file, "budget");
      this.byPath.set(abs, "budget");
      return false;
    }
    this.spent += size;
    const reads = this.tables.reads;
    const lines = doc?.index ?? this.tables.get(abs, identity as FileIdentity, this.model);
    this.byFile.set(file, lines);
    this.byPath.set(abs, lines);
    return this.tables.reads !== reads;
  }
}
