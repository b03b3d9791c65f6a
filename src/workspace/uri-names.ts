/**
 * How results name the files server URIs point to (SPEC §4.3), kept across calls: a
 * reference list names the same few hundred files on every call, and what a URI names is
 * a function of the URI and the root alone (no disk looked at), so it is worked out once
 * per URI, not once per call. Bounded by count, the oldest out first.
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
}

/** The name of `uri` under `ws`'s root, worked out afresh. */
export function uriName(ws: WorkspaceRoot, uri: string): UriName {
  const path = uriToPath(uri);
  return { path, file: path === null ? null : displayPath(ws, path) };
}

export class UriNames {
  private readonly names = new Map<string, UriName>();

  constructor(
    private readonly ws: WorkspaceRoot,
    private readonly max = MAX_URI_NAMES,
  ) {}

  of(uri: string): UriName {
    let name = this.names.get(uri);
    if (name === undefined) {
      name = uriName(this.ws, uri);
      if (this.names.size >= this.max) {
        for (const old of this.names.keys()) {
          this.names.delete(old);
          break;
        }
      }
      this.names.set(uri, name);
    }
    return name;
  }
}
