/**
 * The initialize handshake's data (SPEC §5): what the bridge sends,
 * and the position encoding it takes from the answer.
 */
import type { InitializeParams, InitializeResult } from "vscode-languageserver-protocol";
import type { ColumnUnit, ServerConfig, WorkspaceConfig } from "../config/types.ts";
import { fileWatchingAvailable } from "../ffi/inotify.ts";
import type { PositionEncoding } from "../text/positions.ts";
import { pathToUri } from "../workspace/uri.ts";
import { clientCapabilities } from "./client-capabilities.ts";

export function initializeParams(
  workspace: WorkspaceConfig,
  server: ServerConfig,
  unit: ColumnUnit,
  /** the client as the server sees it (SupervisedProcess.clientPid): it exits when that dies */
  processId: number = process.pid,
): InitializeParams {
  const rootUri = pathToUri(workspace.root);
  return {
    processId,
    clientInfo: { name: "theodolite" },
    locale: "en",
    rootPath: workspace.root,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: workspace.name }],
    capabilities: clientCapabilities(unit, fileWatchingAvailable()),
    initializationOptions: server.initialization_options,
    trace: "off",
  };
}

/**
 * SPEC §5: the negotiated encoding; clangd < 15 answers in `offsetEncoding`. A configured
 * `position_encoding` (`override`) wins: the encoding the server really uses.
 */
export function negotiatedEncoding(
  init: InitializeResult & { offsetEncoding?: string },
  override: PositionEncoding | null = null,
): PositionEncoding {
  if (override !== null) return override;
  const value = init.capabilities?.positionEncoding ?? init.offsetEncoding ?? "utf-16";
  return value === "utf-8" || value === "utf-32" ? value : "utf-16";
}
