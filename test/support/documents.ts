/**
 * The session's documents without a server, for unit tests (SPEC §5): Documents over a
 * real temp workspace and a recording server link — `take()` returns what was sent, as
 * `[method, detail…]` tuples. `clearDocuments()` (afterEach) stops every watcher made.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BridgeConfig, ServerConfig } from "../../src/config/types.ts";
import { SessionContext } from "../../src/session/context.ts";
import { Documents } from "../../src/session/documents.ts";
import { defaultHooks } from "../../src/session/hooks.ts";
import { pathToUri } from "../../src/workspace/uri.ts";
import type { Workspace } from "../../src/workspace/workspace.ts";
import { tempDir } from "./temp-dirs.ts";
import { workspaceAt } from "./workspace.ts";

const opened: Documents[] = [];
/** workspaces made here: their watchers hold an inotify instance each until closed */
const made: Workspace[] = [];

export function clearDocuments(): void {
  for (const d of opened.splice(0)) d.clear();
  for (const ws of made.splice(0)) ws.close();
}

function freshWorkspace(): Workspace {
  const ws = workspaceAt(tempDir("theodolite-coherence-", {}), { maxFileBytes: 1 << 20 });
  made.push(ws);
  return ws;
}

type Sent = [string, ...unknown[]];

export function setup(
  files: Record<string, string>,
  opts: {
    save?: boolean;
    maxOpen?: number;
    openChanged?: boolean;
    ws?: Workspace;
    /** a server whose diagnostics come from check runs (diagnostics_runs) */
    runs?: boolean;
    /** the bridge starts the server's runs with this notification (diagnostics_runs.start) */
    runRequest?: string;
    /** the server publishes a file again when it is closed (diagnostics_runs.barrier.republish) */
    republish?: boolean;
    roles?: ("semantics" | "diagnostics")[];
    /** whether the server has loaded (readiness `loaded`); default: it has */
    loaded?: () => boolean;
    restartOn?: string[];
    reloadOn?: string[];
    /** SPEC §5.3: what a change nothing vouches for does (default: restart) */
    unproven?: "restart" | "mark";
    follows?: string[];
    reads?: string[];
    manifest?: string;
  } = {},
) {
  // with `ws`: another session of the same workspace (they share its watcher)
  const ws = opts.ws ?? freshWorkspace();
  const root = ws.rootReal;
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const sent: Sent[] = [];
  const rel = (uri: string) => uri.slice(pathToUri(root).length + 1);
  let barriers = 0;
  const server = {
    name: "fake",
    extensions: opts.manifest ? { go: "go" } : { py: "python" },
    languages: ["fake"],
    open_changed_files: opts.openChanged === true,
    diagnostics_runs:
      opts.runs || opts.runRequest || opts.republish
        ? {
            progress: ["^checking$"],
            start: opts.runRequest ? { method: opts.runRequest, params: {} } : null,
            barrier: opts.republish
              ? { method: "pool/barrier", params: {}, republish: true }
              : null,
          }
        : null,
    roles: opts.roles ?? ["semantics", "diagnostics"],
    restart_on: opts.restartOn ?? [],
    reload_on: opts.reloadOn ?? [],
    follows: opts.follows ?? [],
    own_files: ["**/.cache/**"],
    reads: opts.reads ?? ["**"],
    unproven: opts.unproven ?? "restart",
    package_manifest: opts.manifest ?? null,
    line_terminators: ["cr", "lf", "crlf"],
  } as unknown as ServerConfig;
  const bridge = {
    max_file_bytes: 1 << 20,
    max_open_documents: opts.maxOpen ?? 64,
    max_watches: 100,
    request_timeout_ms: 10_000,
    log: { level: "info", file: null, max_bytes: 1 << 20, max_files: 1 },
  } as BridgeConfig;
  const ctx = new SessionContext(ws, server, bridge, {
    ...defaultHooks(),
    languageIdFor: () => "fake",
  });
  const docs = new Documents(ctx, {
    notify: (method, params) => {
      const p = params as {
        textDocument?: { uri: string; version?: number };
        contentChanges?: { text: string }[];
        changes?: { uri: string; type: number }[];
      };
      const doc = p.textDocument;
      if (method === "workspace/didChangeWatchedFiles") {
        sent.push([method, ...(p.changes ?? []).map((c) => `${c.type} ${rel(c.uri)}`)]);
      } else if (method === "textDocument/didOpen" && doc) {
        sent.push(["didOpen", rel(doc.uri), doc.version]);
      } else if (method === "textDocument/didChange" && doc) {
        sent.push(["didChange", rel(doc.uri), doc.version, p.contentChanges?.[0]?.text]);
      } else if (method === "textDocument/didClose" && doc) {
        sent.push(["didClose", rel(doc.uri)]);
      } else if (method === "textDocument/didSave" && doc) {
        sent.push(["didSave", rel(doc.uri)]);
      } else sent.push([method]);
    },
    capabilities: () => ({ textDocumentSync: opts.save === false ? {} : { save: {} } }),
    encoding: () => "utf-16",
    barrier: async () => {
      barriers += 1;
      sent.push(["barrier"]);
    },
    loaded: opts.loaded ?? (() => true),
  });
  opened.push(docs);
  const register = (watchers: unknown[]) => {
    const id = `r${ctx.registrations.size}`;
    ctx.registrations.set(id, {
      id,
      method: "workspace/didChangeWatchedFiles",
      registerOptions: { watchers },
    });
    docs.disk.registrationsChanged();
  };
  const open = async (file: string, refresh: "none" | "reopen" = "none") =>
    docs.target(ws.read(file), refresh);
  const take = () => sent.splice(0);
  return { root, ws, write, docs, ctx, register, open, take, barriers: () => barriers };
}
