/**
 * typescript-language-server's diagnostics asked for, not waited for (SPEC §6, the
 * `tsserver` settle rule): no publish of it proves the set complete, but tsserver handles
 * requests in order, so what `typescript.tsserverRequest` answers after the sync is its
 * finished check. Converted the way tls converts what it publishes.
 */
import {
  type Diagnostic,
  DiagnosticSeverity,
  DiagnosticTag,
  ExecuteCommandRequest,
} from "vscode-languageserver-protocol";
import { pathToUri } from "../workspace/uri.ts";

export const TSSERVER_REQUEST = "typescript.tsserverRequest";
const KINDS = ["syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"];

/** tsserver's position: 1-based line and offset (UTF-16 code units). */
interface TsLocation {
  line: number;
  offset: number;
}

interface TsDiagnostic {
  start: TsLocation;
  end: TsLocation;
  text: string;
  code?: number;
  category?: string;
  source?: string;
  reportsUnnecessary?: unknown;
  reportsDeprecated?: unknown;
  relatedInformation?: {
    message?: string;
    span?: { start: TsLocation; end: TsLocation; file: string };
  }[];
}

function isLocation(x: unknown): x is TsLocation {
  const l = x as TsLocation | null;
  return (
    typeof l === "object" && l !== null && Number.isInteger(l.line) && Number.isInteger(l.offset)
  );
}

function position(l: TsLocation): { line: number; character: number } {
  return { line: Math.max(0, l.line - 1), character: Math.max(0, l.offset - 1) };
}

const range = (start: TsLocation, end: TsLocation) => ({
  start: position(start),
  end: position(end),
});

const SEVERITY: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  suggestion: DiagnosticSeverity.Hint,
};

/** One tsserver diagnostic as LSP, or undefined when malformed (servers are untrusted, SPEC §8). */
export function fromTsserver(d: unknown): Diagnostic | undefined {
  const t = d as TsDiagnostic | null;
  if (typeof t !== "object" || t === null || !isLocation(t.start) || !isLocation(t.end)) return;
  const out: Diagnostic = {
    range: range(t.start, t.end),
    message: typeof t.text === "string" ? t.text : "",
    severity: SEVERITY[t.category ?? ""] ?? DiagnosticSeverity.Error,
    source: typeof t.source === "string" ? t.source : "typescript",
  };
  if (typeof t.code === "number") out.code = t.code;
  const related = (Array.isArray(t.relatedInformation) ? t.relatedInformation : []).flatMap((r) =>
    r?.span && isLocation(r.span.start) && isLocation(r.span.end) && typeof r.span.file === "string"
      ? [
          {
            location: { uri: pathToUri(r.span.file), range: range(r.span.start, r.span.end) },
            message: typeof r.message === "string" ? r.message : "",
          },
        ]
      : [],
  );
  if (related.length > 0) out.relatedInformation = related;
  const tags = [
    ...(t.reportsUnnecessary ? [DiagnosticTag.Unnecessary] : []),
    ...(t.reportsDeprecated ? [DiagnosticTag.Deprecated] : []),
  ];
  if (tags.length > 0) out.tags = tags;
  return out;
}

/** The body of tsserver's response to one of the diagnostics requests, as LSP diagnostics. */
export function diagnosticsOfResponse(response: unknown): Diagnostic[] {
  const body = (response as { body?: unknown } | null)?.body;
  if (!Array.isArray(body)) return [];
  return body.flatMap((d) => fromTsserver(d) ?? []);
}

/** What a tsserver request needs: a typed request on the session's server. */
export type ExecuteCommand = (
  request: typeof ExecuteCommandRequest.type,
  params: { command: string; arguments: unknown[] },
) => Promise<unknown>;

/** Every diagnostic tsserver has for `abs`, asked after everything sent before. */
export async function tsserverDiagnostics(
  execute: ExecuteCommand,
  abs: string,
): Promise<Diagnostic[]> {
  // tsserver answers them in order, after whatever reached it before
  const responses = await Promise.all(
    KINDS.map((kind) =>
      execute(ExecuteCommandRequest.type, {
        command: TSSERVER_REQUEST,
        arguments: [kind, { file: abs, includeLinePosition: false }],
      }),
    ),
  );
  return responses.flatMap(diagnosticsOfResponse);
}
