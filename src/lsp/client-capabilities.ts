/**
 * What the bridge advertises as an LSP client (what the server offers is
 * session/server-capabilities.ts): exactly the capabilities the bridge honours,
 * nothing it would not handle correctly.
 */
import type {
  ClientCapabilities,
  CompletionItemKind,
  SymbolKind,
} from "vscode-languageserver-protocol";
import type { ColumnUnit } from "../config/types.ts";
import type { PositionEncoding } from "../text/positions.ts";

const SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);
const COMPLETION_KINDS = Array.from({ length: 25 }, (_, i) => (i + 1) as CompletionItemKind);

/** Offer every encoding we convert exactly (SPEC §5), the client's own unit first. */
export function preferredEncodings(unit: ColumnUnit): PositionEncoding[] {
  const first: PositionEncoding =
    unit === "utf-8" ? "utf-8" : unit === "utf-16" ? "utf-16" : "utf-32";
  return [first, ...(["utf-8", "utf-32", "utf-16"] as const).filter((e) => e !== first)];
}

/**
 * `fileWatching`: the bridge can deliver `workspace/didChangeWatchedFiles` for the
 * watchers a server registers (SPEC §5.2); advertised only where it can.
 */
export function clientCapabilities(
  unit: ColumnUnit,
  fileWatching = false,
): ClientCapabilities & {
  offsetEncoding: string[];
} {
  const encodings = preferredEncodings(unit);
  return {
    general: { positionEncodings: encodings },
    // clangd before 15 negotiates with its own extension (answer in result.offsetEncoding)
    offsetEncoding: encodings,
    window: { workDoneProgress: true, showMessage: { messageActionItem: {} } },
    workspace: {
      configuration: true,
      workspaceFolders: true,
      applyEdit: false,
      symbol: { symbolKind: { valueSet: SYMBOL_KINDS } },
      diagnostics: { refreshSupport: true },
      didChangeConfiguration: { dynamicRegistration: false },
      didChangeWatchedFiles: {
        dynamicRegistration: fileWatching,
        relativePatternSupport: fileWatching,
      },
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true, willSave: false },
      hover: { contentFormat: ["markdown", "plaintext"] },
      // no snippets: an item's text is what it inserts (SPEC §4.3); documentation is asked
      // by completionItem/resolve, and only when the caller wants it
      completion: {
        completionItem: {
          snippetSupport: false,
          documentationFormat: ["markdown", "plaintext"],
          resolveSupport: { properties: ["documentation"] },
          labelDetailsSupport: true,
        },
        completionItemKind: { valueSet: COMPLETION_KINDS },
        contextSupport: true,
      },
      signatureHelp: {
        signatureInformation: {
          documentationFormat: ["markdown", "plaintext"],
          parameterInformation: { labelOffsetSupport: true },
          activeParameterSupport: true,
        },
        contextSupport: true,
      },
      definition: { linkSupport: true },
      declaration: { linkSupport: true },
      typeDefinition: { linkSupport: true },
      implementation: { linkSupport: true },
      references: {},
      callHierarchy: { dynamicRegistration: false },
      typeHierarchy: { dynamicRegistration: false },
      documentSymbol: {
        hierarchicalDocumentSymbolSupport: true,
        symbolKind: { valueSet: SYMBOL_KINDS },
      },
      codeAction: {
        codeActionLiteralSupport: {
          codeActionKind: {
            valueSet: [
              "",
              "quickfix",
              "refactor",
              "refactor.extract",
              "refactor.inline",
              "refactor.rewrite",
              "source",
              "source.organizeImports",
              "source.fixAll",
            ],
          },
        },
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ["edit"] },
      },
      rename: { prepareSupport: true },
      // inlay_hints reads labels and kinds; nothing is resolved (SPEC §4.1)
      inlayHint: { dynamicRegistration: false },
      formatting: { dynamicRegistration: false },
      rangeFormatting: { dynamicRegistration: false },
      publishDiagnostics: { relatedInformation: true, versionSupport: true },
      diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    },
    experimental: { serverStatusNotification: true },
  };
}
