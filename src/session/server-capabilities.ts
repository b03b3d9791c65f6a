/** What the server offers: in its initialize result, or later by registration. */
import {
  type Registration,
  type ServerCapabilities,
  TextDocumentSyncKind,
} from "vscode-languageserver-protocol";

export function offers(
  capabilities: ServerCapabilities | undefined,
  registrations: ReadonlyMap<string, Registration>,
  provider: keyof ServerCapabilities,
  method: string,
): boolean {
  const value = capabilities?.[provider];
  if (value !== undefined && value !== null && value !== false) return true;
  for (const r of registrations.values()) if (r.method === method) return true;
  return false;
}

/** Whether the server takes ranged document changes (`textDocumentSync` Incremental). */
export function takesRanges(capabilities: ServerCapabilities | undefined): boolean {
  const sync = capabilities?.textDocumentSync;
  const kind = typeof sync === "number" ? sync : sync?.change;
  return kind === TextDocumentSyncKind.Incremental;
}
