/**
 * The line tables one call's answer is converted with (SPEC §5.1, §8.2), within a byte
 * budget. Every distinct file the answer names — a file is its device and inode, so the
 * links of one file are one — counts what its table costs against the budget in a
 * canonical order (paths sorted), whether it is cached, open or read now: a bridge started
 * afresh converts the same files and gives the same bytes. A table costs its text and 4
 * bytes a line (line-columns.ts callCost): a file of empty lines costs five times its
 * bytes. A file whose bytes pass what is left is not read; one whose table would is read
 * and counted, its bytes charged, no table made. Its positions stay the server's, and the
 * answer names it. The call's own document is converted with the table it has, free: every
 * bridge has it open.
 *
 * An answer is first converted with what costs no read (`peek`: open documents, cached
 * tables): when every file it names is there and within the budget, the order it met them
 * in decides nothing, and that is the answer. Otherwise (`load`) the files it named are
 * taken again in canonical order, one read per turn of the event loop — the bridge answers
 * pings and other calls between them — and the answer is converted once more.
 */
import { callCost, type FileLines, type LineColumns } from "../text/line-columns.ts";
import type { LineIndex } from "../text/line-index.ts";
import type { LineModel } from "../text/line-model.ts";
import type { FileIdentity } from "./confined.ts";
import { sameIdentity } from "./identity.ts";
import { fileKey, type LineTables } from "./line-tables.ts";

/** What one call may convert: the sizes of its distinct files, summed in canonical order. */
export const CALL_BUDGET_BYTES = 32 * 1024 * 1024;

/** An open document the session holds for a path: its table and identity (SPEC §5.1). */
export interface OpenLines {
  index: LineIndex;
  text: string;
  identity: FileIdentity | null;
}

/** The session's open documents, as one call's tables see them. */
export interface OpenFiles {
  /** the paths open: looked up for every file an answer names (no call: most are not open) */
  readonly paths: ReadonlyMap<string, unknown>;
  /** the open document at a path of `paths`, its table the server's view */
  lines(abs: string): OpenLines | undefined;
}

/** No document open (a call of no session: tests, benchmarks). */
export const NONE_OPEN: OpenFiles = { paths: new Map(), lines: () => undefined };

/** A file whose lines cost a read, or past the budget before canonical order was taken. */
export const PENDING = "pending";

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class CallLines {
  /**
   * by file (device and inode): the links of one file share one table and one count, and a
   * path asked again is decided again to the same lines, never paid for twice
   */
  private byFile = new Map<string, FileLines>();
  private spent = 0;
  /** canonical order taken: tables may be read */
  private loaded = false;
  /** the file key of the call's own document (null: none), taken at the first file */
  private ownKey: string | null = null;
  /** the lines `decide` decided last (peek's answer without a second lookup) */
  private latest: FileLines;
  /** what kept tables this call counted are stamped with (new at `load`) */
  private counting: object = {};
  /** the first file met (`begin`): made for every call, few calls meet one */
  private begun = false;

  constructor(
    private readonly tables: LineTables,
    /** where the session's server breaks lines */
    private readonly model: LineModel,
    private readonly budgetBytes: number,
    private readonly open: OpenFiles,
    /** the path of the call's own document */
    private readonly own?: string,
    /** events taken (file-vouches.ts): at the first file, at `load`, after each turn given away */
    private readonly sync: () => void = () => {},
  ) {}

  /** A file's lines without reading any, or PENDING (before `load` only). */
  peek(abs: string): FileLines | typeof PENDING {
    if (this.loaded) return this.get(abs);
    return this.resolve(abs, false) === PENDING ? PENDING : this.latest;
  }

  /** The tables of every file in `paths`, afresh in canonical order, one read per turn. */
  async load(paths: Iterable<string>): Promise<void> {
    this.byFile = new Map();
    this.spent = 0;
    this.counting = {};
    this.loaded = true;
    if (this.begun) this.sync();
    else this.begin();
    for (const abs of [...new Set(paths)].sort()) {
      if (this.resolve(abs, true) === "read") {
        await nextTurn();
        this.sync();
      }
    }
  }

  /**
   * Whether this call took `abs`'s identity as a regular file beneath the root: it exists,
   * no second look needed (an answer's vanished files, SPEC §4.3).
   */
  present(abs: string): boolean {
    return this.tables.seen(abs)?.foundBy === this;
  }

  /** A file's lines for this call, read now if need be (in turn, after those loaded). */
  get(abs: string): FileLines {
    this.resolve(abs, true);
    return this.latest;
  }

  /**
   * Decide a path's lines (reading only when `read`): whether it read, or had to. A path
   * not open whose lines (or bytes) were had is `present`.
   */
  private resolve(abs: string, read: boolean): "read" | "kept" | typeof PENDING {
    if (!this.begun) this.begin();
    const doc = this.open.paths.has(abs) ? this.open.lines(abs) : undefined;
    if (doc === undefined && this.reused(abs)) return "kept";
    const how = this.decide(abs, read, doc);
    if (how !== PENDING && doc === undefined && this.latest !== undefined) {
      const seen = this.tables.seen(abs);
      if (seen !== undefined) seen.foundBy = this;
    }
    return how;
  }

  /**
   * The common case, decided without a map: a path not open whose vouch holds, reusing the
   * settled table last used through it, stamped with the call that counted it (a link of its
   * file met later is not paid for twice). False: `decide` it.
   */
  private reused(abs: string): boolean {
    const seen = this.tables.vouched(abs);
    const kept = seen?.entry;
    if (
      seen === undefined ||
      kept === undefined ||
      !kept.live ||
      !kept.settled ||
      kept.model !== this.model.key
    ) {
      return false;
    }
    // the table was read with the identity the path shows (the same object once read through it)
    if (kept.identity !== seen.identity && !sameIdentity(kept.identity, seen.identity)) {
      return false;
    }
    if (kept.countedBy !== this.counting) {
      // its file decided by `decide` (past the budget, met through a link), or the own document's
      if (kept.decidedBy === this.counting || seen.file === this.ownKey) return false;
      if (kept.cost > this.budgetBytes - this.spent) return false;
      this.spent += kept.cost;
      kept.countedBy = this.counting;
    }
    seen.foundBy = this;
    this.latest = kept.lines;
    return true;
  }

  private decide(
    abs: string,
    read: boolean,
    doc: OpenLines | undefined,
  ): "read" | "kept" | typeof PENDING {
    const seen = doc === undefined ? this.tables.look(abs) : undefined;
    if (doc === undefined && seen === undefined) return this.decided(null, undefined, "kept");
    const identity = doc !== undefined ? doc.identity : seen?.identity;
    const file = seen?.file ?? fileKeyOf(abs, identity ?? null);
    // decided before in this call: by the map path, or counted by the reuse path
    if (this.byFile.has(file)) return this.decided(null, this.byFile.get(file), "kept");
    const counted = this.tables.keptFor(file, this.model);
    if (counted?.countedBy === this.counting) return this.decided(null, counted.lines, "kept");
    const own = this.ownLines(file);
    if (own !== undefined) return this.decided(file, own, "kept");
    const size = identity?.size ?? Buffer.byteLength(doc?.text ?? "");
    const left = this.budgetBytes - this.spent;
    const id = identity as FileIdentity;
    // not open: `file` is the identity's key
    const cached =
      size > left
        ? undefined
        : (doc?.index ??
          (seen !== undefined
            ? this.tables.cachedFor(seen, this.model)
            : this.tables.cached(id, this.model, file)));
    const cost = cached === undefined ? 0 : callCost(cached);
    // the order met decides which files fit: only canonical order may
    if (!read && (size > left || cached === undefined || cost > left)) return PENDING;
    if (size > left) return this.decided(file, "budget", "kept");
    if (cached !== undefined) {
      this.spent += cost > left ? size : cost;
      return this.decided(file, cost > left ? "budget" : cached, "kept");
    }
    const reads = this.tables.reads;
    let lines = this.tables.get(abs, id, this.model, left);
    if (lines !== undefined && lines !== "budget" && callCost(lines) > left) lines = "budget";
    this.spent += lines === undefined || lines === "budget" ? size : callCost(lines);
    return this.decided(file, lines, this.tables.reads !== reads ? "read" : "kept");
  }

  /** The lines decided (and its file's, unless null: already decided, or none). */
  private decided<T>(file: string | null, lines: FileLines, how: T): T {
    if (file !== null) {
      this.byFile.set(file, lines);
      const kept = this.tables.keptFor(file, this.model);
      if (kept !== undefined) kept.decidedBy = this.counting;
    }
    this.latest = lines;
    return how;
  }

  /** At the first file: the events queued taken, the own document's file known. */
  private begin(): void {
    this.begun = true;
    this.sync();
    const own = this.own;
    const doc = own === undefined ? undefined : this.open.lines(own);
    this.ownKey = own === undefined || doc === undefined ? null : fileKeyOf(own, doc.identity);
  }

  /** The call's own document's table, when `file` is its file. */
  private ownLines(file: string): LineColumns | undefined {
    return file === this.ownKey && this.own !== undefined
      ? this.open.lines(this.own)?.index
      : undefined;
  }
}

/** What counts as one file: its device and inode, or its path when they are not known. */
function fileKeyOf(abs: string, identity: FileIdentity | null): string {
  return identity ? fileKey(identity) : `path ${abs}`;
}
