/** The effects a session needs from outside its core, injected so tests can replace them. */
import { languageOfFile } from "../config/server-files.ts";
import type { ServerConfig, WorkspaceConfig } from "../config/types.ts";
import { sanitizedEnv } from "../process/env.ts";
import {
  type LaunchOptions,
  launchSupervised,
  PRIVATE_DIR,
  type SupervisedProcess,
} from "../process/launch.ts";
import { verifyVersionPin } from "../process/version-pin.ts";
import { type PreparedFiles, prepareWorkspaceFiles } from "../workspace/requirements.ts";

export interface SessionHooks {
  /** workspace prerequisites (SPEC §3.4): extra server args, and files for its own directory */
  prepare(workspace: WorkspaceConfig, server: ServerConfig): Promise<PreparedFiles>;
  /** the version pin (SPEC §3); `signal` aborts when the bridge exits */
  verifyVersion(server: ServerConfig, cwd: string, signal?: AbortSignal): Promise<string>;
  launch(opts: LaunchOptions): SupervisedProcess;
  environment(server: ServerConfig): Record<string, string>;
  languageIdFor(server: ServerConfig, abs: string): string;
  /** bytes read from a server (the bridge's memory collector counts them) */
  took(bytes: number): void;
}

/** languageId from the server's extension map; the first declared language otherwise. */
export function languageIdFor(server: ServerConfig, abs: string): string {
  return languageOfFile(server, abs) ?? server.languages[0] ?? "plaintext";
}

export function defaultHooks(took: (bytes: number) => void = () => {}): SessionHooks {
  return {
    // a TMPDIR of its own unless its configuration sets one (server-process.ts)
    prepare: async (workspace, server) =>
      prepareWorkspaceFiles(workspace, server, "TMPDIR" in server.env ? null : PRIVATE_DIR),
    verifyVersion: (server, cwd, signal) => verifyVersionPin(server, cwd, signal),
    launch: (opts) => launchSupervised(opts),
    environment: (server) => sanitizedEnv(server),
    languageIdFor,
    took,
  };
}
