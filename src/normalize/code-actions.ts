/**
 * code_actions listing entries (SPEC §4.3). Listings never contain edit payloads (SPEC §7.3):
 * only whether an edit or a command is there.
 */

import type { CodeAction, Command } from "vscode-languageserver-protocol";

export interface CodeActionSummary {
  title: string;
  kind?: string;
  preferred: boolean;
  disabled?: string;
  has_edit: boolean;
  has_command: boolean;
}

/** The items of a `textDocument/codeAction` answer that are objects at all (servers are untrusted, SPEC §8). */
export function codeActionItems(raw: unknown): (CodeAction | Command)[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((a): a is CodeAction | Command => typeof a === "object" && a !== null);
}

/** A bare Command has a string `command`; a CodeAction's `command` is a Command object. */
export function isBareCommand(a: CodeAction | Command): a is Command {
  return typeof (a as { command?: unknown }).command === "string";
}

export function summarizeCodeAction(a: CodeAction | Command): CodeActionSummary {
  const title = typeof a.title === "string" ? a.title : "";
  if (isBareCommand(a)) {
    return { title, preferred: false, has_edit: false, has_command: true };
  }
  // LSP requires a reason for a disabled action; a server that sends none still disabled it
  const disabled =
    typeof a.disabled === "object" && a.disabled !== null
      ? typeof a.disabled.reason === "string"
        ? a.disabled.reason
        : "(no reason given)"
      : undefined;
  return {
    title,
    ...(typeof a.kind === "string" && a.kind.length > 0 ? { kind: a.kind } : {}),
    preferred: a.isPreferred === true,
    ...(disabled !== undefined ? { disabled } : {}),
    has_edit: a.edit !== undefined && a.edit !== null,
    has_command: a.command !== undefined && a.command !== null,
  };
}
