/**
 * A minimal LSP client of the parity gate's own (SPEC §11): drives one language server
 * directly over its stdio, with nothing of the bridge in between but the capability set it
 * advertises (so the server behaves the same for both; the parity test passes it in).
 *
 * It answers every server request (an unanswered one stalls real servers,
 * docs/LANGUAGE-SERVERS.md#unanswered-server-requests): workspace/configuration from the server's `settings` exactly
 * as the bridge answers it,
 * client/registerCapability, window/workDoneProgress/create, everything else null.
 * It records publishDiagnostics per URI, $/progress tasks, experimental/serverStatus,
 * log messages and dynamic registrations, and can pull textDocument/diagnostic.
 *
 * Waiting is on events: `until` re-checks its condition on every message from the server;
 * its only timer is the bound that ends in an error naming what was awaited.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  type ClientCapabilities,
  createMessageConnection,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type InitializeResult,
  type MessageConnection,
  type PublishDiagnosticsParams,
  type Registration,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { isAlive } from "../../src/process/proctree.ts";
import { configurationFor } from "../../src/session/server-requests.ts";
import { treeOf } from "../support/processes.ts";
import { removeServerTmp, withServerTmp } from "../support/server-tmp.ts";

/** How long a server gets to exit after `exit` before its tree is killed. */
const EXIT_GRACE_MS = 5_000;

export interface LspClientOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** workspace root: the cwd, rootUri and only workspace folder */
  root: string;
  capabilities: ClientCapabilities;
  initializationOptions: unknown;
  /** what workspace/configuration answers (the server's `settings`, as the bridge does) */
  settings: Record<string, unknown>;
  /** bound of every wait and request */
  timeoutMs?: number;
}

export interface Published {
  version: number | undefined;
  diagnostics: Diagnostic[];
  /** the order this publish arrived in, across all URIs */
  seq: number;
}

export interface ProgressTask {
  title: string;
  ended: boolean;
}

export interface ServerStatus {
  health: string;
  quiescent: boolean;
}

export class LspClient {
  readonly publishes = new Map<string, Published>();
  readonly progress = new Map<string, ProgressTask>();
  readonly registrations: Registration[] = [];
  readonly logs: string[] = [];
  /** every experimental/serverStatus, in order */
  readonly statuses: ServerStatus[] = [];
  refreshes = 0;
  initializeResult: InitializeResult | undefined;
  private publishSeq = 0;
  private readonly wakers = new Set<() => void>();
  private readonly timeoutMs: number;
  private exited = false;
  /** the server's own TMPDIR, as the bridge gives its servers (SPEC §9.2): removed on close */
  private tmp: string | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly conn: MessageConnection,
    private readonly settings: Record<string, unknown>,
    timeoutMs: number,
  ) {
    this.timeoutMs = timeoutMs;
    const gone = () => {
      this.exited = true;
      this.wake();
    };
    child.once("exit", gone);
    // a spawn failure (ENOENT, EACCES) arrives as "error" and must not crash the test run
    child.once("error", gone);
  }

  /** Spawn the server, run initialize/initialized, and return the client. */
  static async start(opts: LspClientOptions): Promise<LspClient> {
    const { env, tmp } = withServerTmp(opts.env);
    const child = spawn(opts.command, opts.args, {
      cwd: opts.root,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    // stderr is drained so a chatty server never blocks on a full pipe
    child.stderr?.resume();
    if (!child.stdout || !child.stdin) throw new Error(`could not spawn ${opts.command}`);
    const conn = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const client = new LspClient(child, conn, opts.settings, opts.timeoutMs ?? 60_000);
    client.tmp = tmp;
    client.install();
    conn.listen();
    try {
      const rootUri = pathToFileURL(opts.root).href;
      client.initializeResult = await client.request<InitializeResult>("initialize", {
        processId: process.pid,
        clientInfo: { name: "theodolite-parity" },
        locale: "en",
        rootPath: opts.root,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "ws" }],
        capabilities: opts.capabilities,
        initializationOptions: opts.initializationOptions,
        trace: "off",
      });
      await conn.sendNotification("initialized", {});
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  private install(): void {
    const c = this.conn;
    c.onRequest("workspace/configuration", (p: { items?: { section?: string }[] }) =>
      (p?.items ?? []).map((item) => configurationFor(this.settings, item?.section)),
    );
    c.onRequest("client/registerCapability", (p: { registrations?: Registration[] }) => {
      this.registrations.push(...(p?.registrations ?? []));
      this.wake();
      return null;
    });
    c.onRequest("window/workDoneProgress/create", () => {
      this.wake();
      return null;
    });
    c.onRequest("workspace/diagnostic/refresh", () => {
      this.refreshes += 1;
      this.wake();
      return null;
    });
    c.onRequest("workspace/applyEdit", () => ({ applied: false }));
    c.onRequest(() => {
      this.wake();
      return null;
    });
    c.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.publishSeq += 1;
      this.publishes.set(p.uri, {
        version: typeof p.version === "number" ? p.version : undefined,
        diagnostics: p.diagnostics,
        seq: this.publishSeq,
      });
      this.wake();
    });
    c.onNotification(
      "$/progress",
      (p: { token: string | number; value: { kind: string; title?: string } }) => {
        const token = String(p.token);
        if (p.value?.kind === "begin")
          this.progress.set(token, { title: p.value.title ?? "", ended: false });
        if (p.value?.kind === "end") {
          const task = this.progress.get(token) ?? { title: "", ended: false };
          this.progress.set(token, { ...task, ended: true });
        }
        this.wake();
      },
    );
    c.onNotification("experimental/serverStatus", (p: ServerStatus) => {
      this.statuses.push({ health: p.health, quiescent: p.quiescent });
      this.wake();
    });
    c.onNotification("window/logMessage", (p: { message: string }) => {
      this.logs.push(p.message);
      this.wake();
    });
    c.onNotification(() => this.wake());
  }

  /** Resolve with the first non-undefined value of `check`, re-checked on every server message. */
  until<T>(check: () => T | undefined, what: string, timeoutMs = this.timeoutMs): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const finish = (fn: () => void) => {
        this.wakers.delete(waker);
        clearTimeout(timer);
        fn();
      };
      const waker = () => {
        const value = check();
        if (value !== undefined) return finish(() => resolve(value));
        if (this.exited) finish(() => reject(new Error(`server exited waiting for ${what}`)));
      };
      // the bound of this wait, never a settling delay
      const timer = setTimeout(
        () => finish(() => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`))),
        timeoutMs,
      );
      this.wakers.add(waker);
      waker();
    });
  }

  /** A bounded request. */
  async request<R>(method: string, params?: unknown): Promise<R> {
    const sent =
      params === undefined
        ? this.conn.sendRequest<R>(method)
        : this.conn.sendRequest<R>(method, params);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${method}: no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([sent, bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.conn.sendNotification(method, params);
  }

  open(uri: string, languageId: string, text: string, version = 1): Promise<void> {
    return this.conn.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId, version, text },
    });
  }

  /** textDocument/diagnostic, `full` items (an `unchanged` report has none to give here). */
  async pull(uri: string): Promise<Diagnostic[]> {
    const report = await this.request<DocumentDiagnosticReport>("textDocument/diagnostic", {
      textDocument: { uri },
    });
    return report?.kind === "full" ? report.items : [];
  }

  /**
   * shutdown + exit (bounded), then SIGKILL whatever of the server's tree is still alive,
   * by explicit pid (the descendants are collected before the server goes).
   */
  async close(): Promise<void> {
    const pid = this.child.pid;
    const tree = pid === undefined ? [] : treeOf(pid);
    if (!this.exited) {
      await this.request("shutdown").catch(() => {});
      await this.conn.sendNotification("exit").catch(() => {});
      await this.until(
        () => (this.exited ? true : undefined),
        "exit after shutdown",
        EXIT_GRACE_MS,
      ).catch(() => {});
    }
    this.conn.dispose();
    for (const p of tree) {
      if (isAlive(p.pid, p.startTime)) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // gone between the check and the kill
        }
      }
    }
    removeServerTmp(this.tmp);
  }
}
