/**
 * A diagnostics result as a SARIF 2.1.0 log (SPEC §2.2, `theodolite call
 * diagnostics --format sarif`), pure: one run whose tool is theodolite, one result
 * per diagnostic with its code as `ruleId`, its severity as `level` (error, warning,
 * note: information and hints are notes), its message, and its workspace-relative
 * file and 1-based range. Diagnostics outside the workspace (`uri`) keep their URI.
 * The run's `columnKind` is the bridge's column unit (SARIF has none for UTF-8 bytes:
 * the caller refuses that); the answer's own fields beside its diagnostics
 * (`complete`, `settled`, `unsettled`, …) are the run's `properties`, and an answer
 * that is not sure (`complete: false`, `settled: false`) says so as a warning
 * notification of the run's invocation, so a gate sees it.
 */
import type { Config } from "../config/types.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

type ColumnUnit = Config["bridge"]["column_unit"];

/** SARIF's `columnKind` for a column unit, or undefined when SARIF has none (pure). */
export function sarifColumnKind(unit: ColumnUnit): string | undefined {
  if (unit === "utf-16") return "utf16CodeUnits";
  if (unit === "code-point") return "unicodeCodePoints";
  return undefined;
}

/** The diagnostic lists of an answer; every other field is the run's property. */
const LISTS = new Set(["diagnostics", "added", "removed", "unchanged"]);

interface DiagnosticItem {
  file?: string;
  uri?: string;
  line?: number;
  column?: number;
  end_line?: number;
  end_column?: number;
  severity?: string;
  code?: string;
  source?: string;
  message?: string;
}

const LEVELS: Record<string, "error" | "warning" | "note"> = {
  error: "error",
  warning: "warning",
  information: "note",
  hint: "note",
};

function region(d: DiagnosticItem): Record<string, number> | undefined {
  if (typeof d.line !== "number") return undefined;
  const r: Record<string, number> = { startLine: d.line };
  if (typeof d.column === "number") r.startColumn = d.column;
  if (typeof d.end_line === "number") r.endLine = d.end_line;
  if (typeof d.end_column === "number") r.endColumn = d.end_column;
  return r;
}

function result(d: DiagnosticItem): Record<string, unknown> {
  // a relative reference (RFC 3986): spaces, `#` and non-ASCII percent-encoded, no fragment
  const uri =
    d.file !== undefined ? d.file.split("/").map(encodeURIComponent).join("/") : (d.uri ?? "");
  const physical: Record<string, unknown> = { artifactLocation: { uri } };
  const r = region(d);
  if (r !== undefined) physical.region = r;
  const out: Record<string, unknown> = {};
  if (d.code !== undefined) out.ruleId = d.code;
  out.level = LEVELS[d.severity ?? ""] ?? "note";
  out.message = { text: d.message ?? "" };
  out.locations = [{ physicalLocation: physical }];
  if (d.source !== undefined) out.properties = { source: d.source };
  return out;
}

/** What makes an answer unsure, as the text of a notification; undefined when it is sure. */
function unsure(answer: Record<string, unknown>): string | undefined {
  const why: string[] = [];
  if (answer.complete === false) why.push("it covers only some of the workspace (complete: false)");
  if (answer.settled === false) {
    const n = Array.isArray(answer.unsettled) ? answer.unsettled.length : 0;
    const total = typeof answer.unsettled_total === "number" ? answer.unsettled_total : n;
    why.push(
      `${total} file(s) may not be checked as they are now (settled: false; see properties.unsettled)`,
    );
  }
  return why.length === 0 ? undefined : `The diagnostics may be incomplete: ${why.join("; ")}.`;
}

/**
 * The SARIF log of a `diagnostics` result (its `diagnostics`, or a `since` answer's
 * `added`) whose columns count in `columnKind` (sarifColumnKind).
 */
export function diagnosticsToSarif(
  answer: Record<string, unknown>,
  version: string,
  columnKind: string,
): Record<string, unknown> {
  const items = (answer.diagnostics ?? answer.added ?? []) as DiagnosticItem[];
  const properties = Object.fromEntries(Object.entries(answer).filter(([k]) => !LISTS.has(k)));
  const run: Record<string, unknown> = {
    tool: { driver: { name: "theodolite", version } },
    columnKind,
    results: items.map(result),
    properties,
  };
  const warning = unsure(answer);
  if (warning !== undefined) {
    run.invocations = [
      {
        executionSuccessful: true,
        toolExecutionNotifications: [{ level: "warning", message: { text: warning } }],
      },
    ];
  }
  return { version: "2.1.0", $schema: SARIF_SCHEMA, runs: [run] };
}
