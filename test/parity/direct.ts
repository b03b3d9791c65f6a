/**
 * The parity gate's direct side (SPEC §11): one server driven alone by the test's own LSP
 * client, started exactly as the bridge starts it (same binary, args including the
 * workspace-prerequisite args, sanitized environment, cwd, initialization options, answers
 * to workspace/configuration, and the bridge's client capabilities except that only UTF-16
 * positions are offered), then settled by the server's own signals before its diagnostics
 * for one file are collected.
 */
import { readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerConfig } from "../../src/config/types.ts";
import { clientCapabilities } from "../../src/lsp/client-capabilities.ts";
import { sanitizedEnv } from "../../src/process/env.ts";
import { prepareWorkspaceFiles } from "../../src/workspace/requirements.ts";
import { LspClient } from "./lsp-client.ts";
import { fromLsp, type ParityDiagnostic } from "./normalize.ts";

/** How to tell that the server, driven alone, has said everything about the file. */
export interface SettlePlan {
  /** before opening: experimental/serverStatus quiescent after a busy one (rust-analyzer) */
  quiescent?: boolean;
  /** before opening: a window/logMessage matching this (pyright's "Found N source files") */
  log?: RegExp;
  /** before opening: the dynamic registration of textDocument/diagnostic (pyright) */
  pullRegistered?: boolean;
  /** before opening: a $/progress task matching this has ended (emmylua_ls' workspace load) */
  loaded?: RegExp;
  /** after opening: a publish for the file carrying this version (clangd) */
  publishVersion?: number;
  /**
   * after opening: a publish for the file, a matching $/progress task ended and none still
   * active (a check run that publishes partial snapshots: cargo check, bacon)
   */
  progressIdle?: RegExp;
  /** after opening: a publish for the file holding this many items (servers nothing settles) */
  publishItems?: number;
  /** pull even though the server does not announce it (astro-ls answers pulls anyway) */
  pull?: boolean;
}

/** The environment the bridge's own children get: its parent env is just PATH and HOME. */
function bridgeLikeEnv(server: ServerConfig): Record<string, string> {
  return sanitizedEnv(server, { PATH: process.env.PATH, HOME: process.env.HOME });
}

/** The bridge's capabilities for column_unit utf-16, with UTF-16 the only encoding offered. */
function utf16OnlyCapabilities() {
  const caps = clientCapabilities("utf-16");
  caps.general = { ...caps.general, positionEncodings: ["utf-16"] };
  caps.offsetEncoding = ["utf-16"];
  return caps;
}

function offersPull(client: LspClient): boolean {
  const static_ = client.initializeResult?.capabilities.diagnosticProvider;
  return (
    (static_ !== undefined && static_ !== null) ||
    client.registrations.some((r) => r.method === "textDocument/diagnostic")
  );
}

/** Start `server` alone on `root` exactly as the bridge starts it (UTF-16 positions only). */
export function startDirect(server: ServerConfig, root: string): Promise<LspClient> {
  // driven alone, the server reads its files where they are (no directory of its own)
  const extraArgs = prepareWorkspaceFiles(
    { name: "ws", root, servers: [server.name], file_dirs: {}, incidental: [] },
    server,
    null,
  ).args;
  return LspClient.start({
    command: server.command,
    args: [...server.args, ...extraArgs],
    env: bridgeLikeEnv(server),
    root,
    capabilities: utf16OnlyCapabilities(),
    initializationOptions: server.initialization_options,
    settings: server.settings,
    timeoutMs: 90_000,
  });
}

/** The plan's conditions to await before a file is opened: the server has loaded the workspace. */
export async function awaitLoaded(client: LspClient, plan: SettlePlan): Promise<void> {
  if (plan.quiescent) {
    await client.until(() => {
      const busy = client.statuses.some((s) => !s.quiescent);
      return busy && client.statuses.at(-1)?.quiescent ? true : undefined;
    }, "quiescent after the load");
  }
  const log = plan.log;
  if (log) {
    await client.until(() => (client.logs.some((l) => log.test(l)) ? true : undefined), `${log}`);
  }
  const loaded = plan.loaded;
  if (loaded) {
    await client.until(
      () =>
        [...client.progress.entries()].some(
          ([token, t]) => t.ended && (loaded.test(token) || loaded.test(t.title)),
        )
          ? true
          : undefined,
      `${loaded} ended`,
    );
  }
  if (plan.pullRegistered) {
    await client.until(
      () => (offersPull(client) ? true : undefined),
      "registration of textDocument/diagnostic",
    );
  }
}

/** Open `file` (workspace-relative) in the direct client as the bridge would: its languageId. */
export async function openDirect(
  client: LspClient,
  server: ServerConfig,
  root: string,
  file: string,
): Promise<string> {
  const abs = join(root, file);
  const uri = pathToFileURL(abs).href;
  const languageId = server.extensions[extname(abs).slice(1)] ?? server.languages[0] ?? "";
  await client.open(uri, languageId, readFileSync(abs, "utf8"), 1);
  return uri;
}

/**
 * Drive `server` alone on `root`, open `file` (workspace-relative), settle by `plan`, and
 * return its pushed and pulled diagnostics for that file as parity tuples.
 */
export async function directDiagnostics(
  server: ServerConfig,
  root: string,
  file: string,
  plan: SettlePlan,
): Promise<ParityDiagnostic[]> {
  const client = await startDirect(server, root);
  try {
    await awaitLoaded(client, plan);
    const uri = await openDirect(client, server, root, file);
    // a server set not to start its diagnostics runs itself is asked for one, as its
    // configuration says (rust-analyzer: runFlycheck, with checkOnSave off)
    const run = server.diagnostics_runs?.start ?? null;
    if (run !== null) await client.notify(run.method, run.params);

    const pulled = plan.pull || offersPull(client) ? await client.pull(uri) : undefined;
    const version = plan.publishVersion;
    if (version !== undefined) {
      await client.until(
        () => (client.publishes.get(uri)?.version === version ? true : undefined),
        `publish for ${file} version ${version}`,
      );
    }
    const progress = plan.progressIdle;
    if (progress) {
      await client.until(() => {
        const tasks = [...client.progress.entries()].filter(
          ([token, t]) => progress.test(token) || progress.test(t.title),
        );
        const idle = tasks.some(([, t]) => t.ended) && tasks.every(([, t]) => t.ended);
        return idle && client.publishes.has(uri) ? true : undefined;
      }, `${progress} ended after a publish for ${file}`);
    }
    const items = plan.publishItems;
    if (items !== undefined) {
      await client.until(
        () => (client.publishes.get(uri)?.diagnostics.length === items ? true : undefined),
        `a publish of ${items} diagnostics for ${file}`,
      );
    }
    const pushed = client.publishes.get(uri)?.diagnostics ?? [];
    return [
      ...fromLsp(root, uri, pushed, "push"),
      ...(pulled ? fromLsp(root, uri, pulled, "pull") : []),
    ];
  } finally {
    await client.close();
  }
}
