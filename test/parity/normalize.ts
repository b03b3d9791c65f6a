/**
 * The ONE normalization of the parity gate (SPEC §11), applied to both sides: what a
 * server published/pulled when driven alone, and what the bridge's `diagnostics` tool
 * returned (mapped back to the same tuple). Written independently of src/normalize, so
 * the gate checks the bridge's conversion instead of repeating it.
 *
 * Tuple: workspace-relative file, 1-based line and UTF-16 column (LSP 0-based + 1; the
 * bridge runs with column_unit = "utf-16"), severity name, code as string, source,
 * message, its notes (relatedInformation: file, line, column, end, message; sorted), and
 * the channel it came by. Sorted canonically; the result is compared as JSON.
 */
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";

export interface ParityDiagnostic {
  file: string;
  line: number;
  character: number;
  end_line: number;
  end_character: number;
  severity: string;
  code: string | null;
  source: string | null;
  message: string;
  /** [file, line, character, end_line, end_character, message] per note, sorted */
  related: string[];
  channel: "push" | "pull";
}

const SEVERITIES = ["error", "warning", "information", "hint"];

/** LSP leaves a missing severity to the client; both sides read it as an error. */
function severityOf(n: number | undefined): string {
  return n === undefined ? "error" : (SEVERITIES[n - 1] ?? `unknown(${n})`);
}

function relativeFile(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel.split("\\").join("/");
}

/** A server's diagnostics for `uri`, as it sent them. */
export function fromLsp(
  root: string,
  uri: string,
  diagnostics: Diagnostic[],
  channel: "push" | "pull",
): ParityDiagnostic[] {
  const file = relativeFile(root, fileURLToPath(uri));
  return diagnostics.map((d) => ({
    file,
    line: d.range.start.line + 1,
    character: d.range.start.character + 1,
    end_line: d.range.end.line + 1,
    end_character: d.range.end.character + 1,
    severity: severityOf(d.severity),
    code: d.code === undefined || d.code === null ? null : String(d.code),
    source: d.source ?? null,
    // 3.18 MarkupContent messages are only sent to clients that opt in; this one does not
    message: typeof d.message === "string" ? d.message : d.message.value,
    related: (d.relatedInformation ?? [])
      .map((r) => {
        const at = r.location.range;
        const f = relativeFile(root, fileURLToPath(r.location.uri));
        return JSON.stringify([
          f,
          at.start.line + 1,
          at.start.character + 1,
          at.end.line + 1,
          at.end.character + 1,
          r.message,
        ]);
      })
      .sort(),
    channel,
  }));
}

/** One item of the bridge's `diagnostics` result (column_unit utf-16), one tuple per channel. */
export interface BridgeDiagnostic {
  file?: string;
  uri?: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  severity: string;
  code?: string;
  source?: string;
  message: string;
  related?: {
    file?: string;
    uri?: string;
    line: number;
    column: number;
    end_line: number;
    end_column: number;
    message: string;
  }[];
  channels: ("push" | "pull")[];
}

export function fromBridge(items: BridgeDiagnostic[]): ParityDiagnostic[] {
  return items.flatMap((d) =>
    d.channels.map((channel) => ({
      file: d.file ?? d.uri ?? "",
      line: d.line,
      character: d.column,
      end_line: d.end_line,
      end_character: d.end_column,
      severity: d.severity,
      code: d.code ?? null,
      source: d.source ?? null,
      message: d.message,
      related: (d.related ?? [])
        .map((r) =>
          JSON.stringify([
            r.file ?? r.uri ?? "",
            r.line,
            r.column,
            r.end_line,
            r.end_column,
            r.message,
          ]),
        )
        .sort(),
      channel,
    })),
  );
}

/** Fixed key order, then a total order on the serialized tuples. */
export function canonical(items: ParityDiagnostic[]): string {
  const lines = items.map((d) =>
    JSON.stringify([
      d.file,
      d.line,
      d.character,
      d.end_line,
      d.end_character,
      d.severity,
      d.code,
      d.source,
      d.message,
      d.related,
      d.channel,
    ]),
  );
  lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `[\n${lines.join(",\n")}\n]`;
}
