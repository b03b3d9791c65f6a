/**
 * Answers to the server's requests and its notifications (SPEC §9.1): every request is
 * answered (docs/LANGUAGE-SERVERS.md#unanswered-server-requests).
 */
import {
  ErrorCodes,
  LSPErrorCodes,
  type MessageConnection,
  type PublishDiagnosticsParams,
  type Registration,
  ResponseError,
  type WorkspaceFolder,
} from "vscode-languageserver-protocol";
import { log } from "../log.ts";
import { keptText } from "./kept-text.ts";
import type { ServerStatus } from "./readiness.ts";
import { RegistrationBook } from "./registrations.ts";

export interface ServerEventSink {
  label: string;
  settings: Record<string, unknown>;
  workspaceFolders: WorkspaceFolder[];
  registrations: Map<string, Registration>;
  onProgress(token: string | number, value: unknown): void;
  onServerStatus(status: ServerStatus): void;
  onLogMessage(text: string): void;
  onPublishDiagnostics(params: PublishDiagnosticsParams): void;
  /** a registration was added or removed (file watchers, SPEC §5.2) */
  onRegistrationsChanged(): void;
  /** any event at all: wakes waiters (readiness, settle, ContentModified retry) */
  notify(): void;
}

/** Items one `workspace/configuration` may ask for (each may be all of `settings`, SPEC §8.2). */
export const MAX_CONFIGURATION_ITEMS = 1024;
/** A section longer than this names no setting (its answer is null, never a split of it). */
const MAX_SECTION_CHARS = 1024;

/** `workspace/configuration`: a section is a dotted path into `settings`; missing → null. */
export function configurationFor(
  settings: Record<string, unknown>,
  section: string | undefined,
): unknown {
  if (section === undefined || section === "") return settings;
  if (typeof section !== "string" || section.length > MAX_SECTION_CHARS) return null;
  let node: unknown = settings;
  for (const part of section.split(".")) {
    if (node === null || typeof node !== "object" || !(part in (node as object))) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** A server's text in a log line: at most 1024 characters (SPEC §8). */
function logged(text: string): string {
  return text.length > 1024 ? `${text.slice(0, 1024)}… (${text.length} characters)` : text;
}

/** A refusal the server may repeat in a flood: a warning the first time, then debug lines. */
function loggedOnce(count: number, line: string): void {
  if (count === 1) log.warn(line);
  else log.debug(line);
}

const REFRESH_REQUESTS = [
  "workspace/semanticTokens/refresh",
  "workspace/inlayHint/refresh",
  "workspace/inlineValue/refresh",
  "workspace/codeLens/refresh",
  "workspace/foldingRange/refresh",
];

export function installServerHandlers(conn: MessageConnection, sink: ServerEventSink): void {
  const tag = `[${sink.label}]`;

  let refusedConfigurations = 0;
  conn.onRequest("workspace/configuration", (params: { items?: { section?: string }[] }) => {
    const items = Array.isArray(params?.items) ? params.items : [];
    if (items.length > MAX_CONFIGURATION_ITEMS) {
      const why = `theodolite answers at most ${MAX_CONFIGURATION_ITEMS} configuration items per request (asked: ${items.length})`;
      refusedConfigurations += 1;
      loggedOnce(
        refusedConfigurations,
        `${tag} refused workspace/configuration (${refusedConfigurations} so far): ${why}`,
      );
      return new ResponseError(LSPErrorCodes.RequestFailed, why);
    }
    return items.map((item) => configurationFor(sink.settings, item?.section));
  });

  // bounded (SPEC §8); what follows from a change runs once, after a burst: a flood of
  // registrations costs linear time
  const book = new RegistrationBook(sink.registrations);
  let changeQueued = false;
  const changed = (): void => {
    sink.notify();
    if (changeQueued) return;
    changeQueued = true;
    setImmediate(() => {
      changeQueued = false;
      sink.onRegistrationsChanged();
    });
  };

  conn.onRequest("client/registerCapability", (params: { registrations?: unknown }) => {
    const list = Array.isArray(params?.registrations) ? params.registrations : [];
    const valid = list.filter(
      (r): r is Registration =>
        r !== null && typeof r === "object" && typeof (r as Registration).id === "string",
    );
    const refused = book.add(valid);
    if (refused !== undefined) {
      loggedOnce(
        book.refused,
        `${tag} refused a registration (${book.refused} so far): ${refused}`,
      );
      return new ResponseError(LSPErrorCodes.RequestFailed, refused);
    }
    changed();
    return null;
  });

  conn.onRequest(
    "client/unregisterCapability",
    // the protocol's own field name is misspelled "unregisterations"
    (params: { unregisterations?: unknown; unregistrations?: unknown }) => {
      const list = params?.unregisterations ?? params?.unregistrations;
      for (const r of Array.isArray(list) ? list : []) {
        if (typeof r?.id === "string") book.remove(r.id);
      }
      changed();
      return null;
    },
  );

  conn.onRequest("window/workDoneProgress/create", () => null);
  conn.onRequest("workspace/workspaceFolders", () => sink.workspaceFolders);

  conn.onRequest("window/showMessageRequest", (params: { message?: string }) => {
    log.debug(`${tag} showMessageRequest (no action chosen): ${logged(params?.message ?? "")}`);
    return null;
  });

  // every diagnostics call pulls afresh, so a refresh needs nothing stored: it only
  // wakes waiters (rust-analyzer refreshes once its load is done)
  conn.onRequest("workspace/diagnostic/refresh", () => {
    sink.notify();
    return null;
  });
  for (const method of REFRESH_REQUESTS) conn.onRequest(method, () => null);

  conn.onRequest("workspace/applyEdit", (params: { label?: string }) => {
    log.warn(
      `${tag} refused workspace/applyEdit${params?.label ? ` "${logged(String(params.label))}"` : ""} (SPEC §7.4)`,
    );
    return {
      applied: false,
      failureReason: "theodolite never applies edits requested by a language server (SPEC §7.4)",
    };
  });

  conn.onRequest("window/showDocument", () => ({ success: false }));

  conn.onRequest((method: string) => {
    log.debug(`${tag} unhandled server request ${logged(method)}`);
    return new ResponseError(ErrorCodes.MethodNotFound, `theodolite does not handle ${method}`);
  });

  conn.onNotification("$/progress", (params: { token: string | number; value: unknown }) => {
    if (params && (typeof params.token === "string" || typeof params.token === "number")) {
      sink.onProgress(params.token, params.value);
    }
    sink.notify();
  });

  conn.onNotification("experimental/serverStatus", (params: Partial<ServerStatus>) => {
    if (params && typeof params.quiescent === "boolean") {
      const health = String(params.health ?? "ok");
      const status: ServerStatus = { health: keptText(health, 64), quiescent: params.quiescent };
      // shown in session_status and SessionDead: the server's text, bounded (SPEC §8)
      if (typeof params.message === "string") status.message = keptText(params.message, 1024);
      sink.onServerStatus(status);
    }
    sink.notify();
  });

  conn.onNotification("window/logMessage", (params: { message?: string }) => {
    if (typeof params?.message === "string") sink.onLogMessage(params.message);
    sink.notify();
  });

  conn.onNotification("window/showMessage", (params: { message?: string }) => {
    if (typeof params?.message === "string") {
      log.debug(`${tag} showMessage: ${logged(params.message)}`);
      sink.onLogMessage(params.message);
    }
    sink.notify();
  });

  conn.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) => {
    if (params && typeof params.uri === "string") sink.onPublishDiagnostics(params);
    sink.notify();
  });

  conn.onNotification(() => {
    sink.notify();
  });
}
