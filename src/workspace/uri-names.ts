/**
 * How results name the files server URIs point to (SPEC §4.3), kept across calls: a
 * reference list names the same few hundred files on every call, and what a URI names is
 * a function of the URI and the root alone (no disk looked at), so it is worked out once
 * per URI, not once per call. Bounded by count, the oldest out first.
 *
 * A name also carries what the conversion run that last met it found (range-converter.ts):
 * runs are numbered by the names they share, so a run knows its own without a map of its
 * own, and a name met by two calls in turn is only looked up again.
 */
import { displayPath, type WorkspaceRoot } from "./paths.ts";
import { uriToPath } from "./uri.ts";

/** URIs remembered: more files than a page of the default `max_result_bytes` can name. */
export const MAX_URI_NAMES = 4096;

/** What a URI names: its path (null for a non-file URI) and how results name that path. */
export interface UriName {
  readonly path: string | null;
  /** workspace-relative inside the root, else absolute; null with path */
  readonly file: string | null;
  /** what results carry for it: the file, or the URI when it names none */
  readonly target: { readonly file: string } | { readonly uri: string };
  /**
   * the name its path was first given, null for that name itself: spellings of one path
   * share its table in a run
   */
  canon: UriName | null;
  /** the conversion run that last looked up its table (on `canon`), and where it keeps it */
  run: number;
  slot: number;
}

/** The name of `uri` under `ws`'s root, worked out afresh. */
export function uriName(ws: WorkspaceRoot, uri: string): UriName {
  const path = uriToPath(uri);
  const file = path === null ? null : displayPath(ws, path);
  const target = file === null ? { uri } : { file };
  return { path, file, target, canon: null, run: -1, slot: -1 };
}

export class UriNames {
  private readonly names = new Map<string, UriName>();
  /** by what results call the file: the name that was made first (its path's canon) */
  private readonly files = new Map<string, UriName>();
  private runs = 0;

  constructor(
    private readonly ws: WorkspaceRoot,
    private readonly max = MAX_URI_NAMES,
  ) {}

  of(uri: string): UriName {
    let name = this.names.get(uri);
    if (name === undefined) {
      name = uriName(this.ws, uri);
      if (this.names.size >= this.max) {
        for (const [old, gone] of this.names) {
          this.names.delete(old);
          if (gone.file !== null && this.files.get(gone.file) === gone)
            this.files.delete(gone.file);
          break;
        }
      }
      this.names.set(uri, name);
      if (name.file !== null) {
        const first = this.files.get(name.file);
        if (first === undefined) this.files.set(name.file, name);
        else name.canon = first.canon ?? first;
      }
    }
    return name;
  }

  /** A name kept for what results call a file, if any. */
  byFile(file: string): UriName | undefined {
    return this.files.get(file);
  }

  /** A conversion run's number, unique among the runs that share these names. */
  nextRun(): number {
    this.runs += 1;
    return this.runs;
  }
}
