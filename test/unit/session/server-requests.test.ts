/**
 * Answers to the server's requests (src/session/server-requests.ts, SPEC §8.2): a
 * `workspace/configuration` request is answered item by item within its bound and refused
 * past it, a section too long to name a setting answers null, and a refusal is an LSP
 * error (never an exception of the handler, which the library would answer -32603).
 */
import { expect, test } from "bun:test";
import {
  LSPErrorCodes,
  type MessageConnection,
  ResponseError,
} from "vscode-languageserver-protocol";
import {
  configurationFor,
  installServerHandlers,
  MAX_CONFIGURATION_ITEMS,
  type ServerEventSink,
} from "../../../src/session/server-requests.ts";

const settings = { python: { analysis: { typeCheckingMode: "strict" } } };

/** The handlers installed, by method, on a connection that records them. */
function handlers(): Map<string, (params: unknown) => unknown> {
  const byMethod = new Map<string, (params: unknown) => unknown>();
  const conn = {
    onRequest: (method: unknown, handler?: (params: unknown) => unknown) => {
      if (typeof method === "string" && handler) byMethod.set(method, handler);
    },
    onNotification: () => {},
  } as unknown as MessageConnection;
  const sink: ServerEventSink = {
    label: "w/test",
    settings,
    workspaceFolders: [],
    registrations: new Map(),
    onProgress: () => {},
    onServerStatus: () => {},
    onLogMessage: () => {},
    onPublishDiagnostics: () => {},
    onRegistrationsChanged: () => {},
    notify: () => {},
  };
  installServerHandlers(conn, sink);
  return byMethod;
}

test("sections are dotted paths; one too long to name a setting answers null", () => {
  expect(configurationFor(settings, "python.analysis")).toEqual({ typeCheckingMode: "strict" });
  expect(configurationFor(settings, undefined)).toBe(settings);
  expect(configurationFor(settings, "python.nothing")).toBeNull();
  expect(configurationFor(settings, ".".repeat(10_000_000))).toBeNull();
});

test("configuration: answered item by item within the bound, refused past it", () => {
  const configuration = handlers().get("workspace/configuration");
  const items = (n: number) => ({ items: Array(n).fill({ section: "python" }) });
  expect(configuration?.(items(2))).toEqual([settings.python, settings.python]);
  expect(configuration?.(items(MAX_CONFIGURATION_ITEMS))).toHaveLength(MAX_CONFIGURATION_ITEMS);
  const refused = configuration?.(items(MAX_CONFIGURATION_ITEMS + 1));
  expect(refused).toBeInstanceOf(ResponseError);
  expect((refused as ResponseError<unknown>).code).toBe(LSPErrorCodes.RequestFailed);
  expect((refused as ResponseError<unknown>).message).toContain(
    `at most ${MAX_CONFIGURATION_ITEMS} configuration items`,
  );
});

test("a registration past its bound is refused with an LSP error, not an exception", () => {
  const register = handlers().get("client/registerCapability");
  const registrations = Array.from({ length: 2000 }, (_, i) => ({
    id: `r${i}`,
    method: "workspace/didChangeWatchedFiles",
  }));
  const refused = register?.({ registrations });
  expect(refused).toBeInstanceOf(ResponseError);
  expect((refused as ResponseError<unknown>).code).toBe(LSPErrorCodes.RequestFailed);
});
