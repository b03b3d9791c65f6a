/**
 * Output shapes of SPEC §4.3. Builders construct objects with keys in the order declared
 * here, because results are serialized as-is (cap.ts) and identical input must give
 * identical bytes.
 */

import type { LspRange } from "../text/positions.ts";

/** A client-convention range: 1-based lines and columns (column in `column_unit`). */
export interface Range {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

/** Where a location points: a workspace-relative or absolute `file`, or a non-file `uri`. */
export type Target = { file: string } | { uri: string };

/** A location, flattened: `{file, line, column, end_line, end_column}` or `{uri, …}`. */
export type Loc = Target & Range;

export interface NormalizeContext {
  toLoc(uri: string, range: LspRange): Loc;
  toRange(uri: string, range: LspRange): Range;
  /** the target alone ({file} or {uri}), for locations without a range */
  toTarget(uri: string): Target;
  /** the workspace root as configured and its realpath, longest first (paths in server text) */
  roots: readonly string[];
  /**
   * `run` (a conversion of one answer) with the line tables that cost no read; if a file
   * needs one, or the call's budget decides, every file it named is loaded and it runs again
   */
  convert<T>(run: () => T | Promise<T>): Promise<T>;
  /** files met so far whose positions stayed the server's (past the call's budget), sorted */
  unconverted(): string[];
  /**
   * Whether a file a result names (as `Target.file`) was found by this call's conversion,
   * a regular file beneath the root: it exists (false: not known, look)
   */
  found(file: string): boolean;
}

export type SeverityName = "error" | "warning" | "information" | "hint";
export type Channel = "pull" | "push";

/** A note of a diagnostic (LSP relatedInformation): where, and what it says there. */
export type RelatedOut = Loc & { message: string };

/** SPEC §4.3 `diagnostics` item. */
export type DiagnosticOut = Loc & {
  severity: SeverityName;
  code?: string;
  source?: string;
  message: string;
  related?: RelatedOut[];
  channels: readonly Channel[];
};

/** SPEC §4.3 `document_symbols` node. */
export interface SymbolNode {
  name: string;
  kind: string;
  detail?: string;
  range: Range;
  selection: Range;
  children: SymbolNode[];
}

/** SPEC §4.3 `workspace_symbols` item; a symbol whose location has no range has no range fields. */
export type WorkspaceSymbolOut = { name: string; kind: string; container?: string } & (
  | Loc
  | Target
);
