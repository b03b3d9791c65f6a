/**
 * A diagnostics result as a SARIF 2.1.0 log (SPEC §2.2, `theodolite call
 * diagnostics --format sarif`), pure: one run whose tool is theodolite, one result
 * per diagnostic with its code as `ruleId`, its severity as `level` (error, warning,
 * note: information and hints are notes), its message, and its workspace-relative
 * file and 1-based range. Diagnostics outside the workspace (`uri`) keep their URI.
 */

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

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
  const uri = d.file ?? d.uri ?? "";
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

/** The SARIF log of a `diagnostics` result (its `diagnostics`, or a `since` answer's `added`). */
export function diagnosticsToSarif(
  answer: Record<string, unknown>,
  version: string,
): Record<string, unknown> {
  const items = (answer.diagnostics ?? answer.added ?? []) as DiagnosticItem[];
  return {
    version: "2.1.0",
    $schema: SARIF_SCHEMA,
    runs: [
      {
        tool: { driver: { name: "theodolite", version } },
        results: items.map(result),
      },
    ],
  };
}
