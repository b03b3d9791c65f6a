/**
 * The baseline for the overhead benchmark: a minimal LSP client that drives the same
 * server binary directly over its stdio, with vscode-jsonrpc's connection (as the bridge
 * does) and no MCP, supervisor, `--exec-server`, normalization or size cap in between. It
 * advertises the bridge's client capabilities, answers server requests with the bridge's
 * handlers and tracks progress with the bridge's tracker, so the server does the same
 * work for both clients; everything else is as bare as an LSP client can be.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type {
  Diagnostic,
  InitializeResult,
  MessageConnection,
  PublishDiagnosticsParams,
  Registration,
} from "vscode-languageserver-protocol";
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import type { ServerConfig } from "../src/config/types.ts";
import { clientCapabilities } from "../src/lsp/client-capabilities.ts";
import { sanitizedEnv } from "../src/process/env.ts";
import { languageIdFor } from "../src/session/hooks.ts";
import { ProgressTracker } from "../src/session/progress.ts";
import { installServerHandlers } from "../src/session/server-requests.ts";
import { findWarmupFile } from "../src/session/warmup.ts";
import { pathToUri } from "../src/workspace/uri.ts";
import { descendantsOf } from "../test/support/processes.ts";
import { removeServerTmp, withServerTmp } from "../test/support/server-tmp.ts";
import { workspaceAt } from "../test/support/workspace.ts";
import { killOnInterrupt } from "./interrupt.ts";
import { Watched } from "./procfs.ts";

interface OpenFile {
  uri: string;
  version: number;
}

export class DirectLsp {
  private child: ChildProcessWithoutNullStreams | undefined;
  private conn: MessageConnection | undefined;
  /** the server's own TMPDIR, as the bridge gives its servers (SPEC §9.2): removed on close */
  private tmp: string | undefined;
  readonly progress = new ProgressTracker();
  /** unregisters the server from the interrupt cleanup (bench/interrupt.ts) */
  private unregister: () => void = () => {};
  private readonly published = new Map<string, PublishDiagnosticsParams>();
  private readonly publishCount = new Map<string, number>();
  private readonly open = new Map<string, OpenFile>();
  /** the server's dynamic registrations (pyright registers its pull diagnostics) */
  readonly registrations = new Map<string, Registration>();
  private waiters: (() => void)[] = [];
  /** every window/logMessage and showMessage text, for log-line readiness (pyright) */
  private readonly logs: string[] = [];
  initResult: InitializeResult | undefined;

  constructor(
    readonly server: ServerConfig,
    readonly root: string,
    /** what the bridge appends from `requires` (clangd: --compile-commands-dir=ROOT) */
    readonly extraArgs: string[] = [],
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolve when `cond()` holds, re-checked on every server event; reject after timeoutMs. */
  async until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!cond()) {
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`direct client: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async start(): Promise<void> {
    const s = this.server;
    const { env, tmp } = withServerTmp(sanitizedEnv(s));
    this.tmp = tmp;
    const child = spawn(s.command, [...s.args, ...this.extraArgs], {
      cwd: this.root,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    if (child.pid !== undefined) {
      this.unregister = killOnInterrupt(child.pid, () => removeServerTmp(tmp));
    }
    child.stderr.resume(); // drained, not kept
    const conn = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    this.conn = conn;
    const folders = [{ uri: pathToUri(this.root), name: "direct" }];
    installServerHandlers(conn, {
      label: "direct",
      settings: s.settings,
      workspaceFolders: folders,
      registrations: this.registrations,
      onProgress: (token, value) => this.progress.update(token, value),
      onServerStatus: () => {},
      onRegistrationsChanged: () => {},
      onLogMessage: (text) => {
        if (this.logs.length < 1000) this.logs.push(text);
      },
      onPublishDiagnostics: (p) => {
        this.published.set(p.uri, p);
        this.publishCount.set(p.uri, (this.publishCount.get(p.uri) ?? 0) + 1);
      },
      notify: () => this.notify(),
    });
    conn.listen();
    this.initResult = (await conn.sendRequest("initialize", {
      processId: process.pid,
      clientInfo: { name: "theodolite-bench-direct" },
      locale: "en",
      rootPath: this.root,
      rootUri: pathToUri(this.root),
      workspaceFolders: folders,
      capabilities: clientCapabilities("code-point"),
      initializationOptions: s.initialization_options,
      trace: "off",
    })) as InitializeResult;
    await conn.sendNotification("initialized", {});
    if (Object.keys(s.settings).length > 0) {
      await conn.sendNotification("workspace/didChangeConfiguration", { settings: s.settings });
    }
  }

  private connection(): MessageConnection {
    if (!this.conn) throw new Error("direct client not started");
    return this.conn;
  }

  /** didOpen with the text on disk (the bridge opens files the same way, SPEC §5). */
  async openFile(abs: string, languageId: string): Promise<string> {
    const uri = pathToUri(abs);
    if (this.open.has(abs)) return uri;
    const text = readFileSync(abs, "utf8");
    this.open.set(abs, { uri, version: 1 });
    await this.connection().sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId, version: 1, text },
    });
    return uri;
  }

  /** didChange (full text from disk, version + 1); returns the new version. */
  async changeFile(abs: string): Promise<number> {
    const file = this.open.get(abs);
    if (!file) throw new Error(`${abs} is not open`);
    file.version += 1;
    await this.connection().sendNotification("textDocument/didChange", {
      textDocument: { uri: file.uri, version: file.version },
      contentChanges: [{ text: readFileSync(abs, "utf8") }],
    });
    return file.version;
  }

  /**
   * Start, open the server's warm-up file if it names one (as the bridge does), and wait
   * for its progress patterns to begin and end, or for its readiness log line.
   */
  async startReady(timeoutMs: number): Promise<void> {
    await this.start();
    const glob = this.server.ready.warmup_open;
    if (glob !== null) {
      const { opened } = await findWarmupFile(workspaceAt(this.root), glob);
      if (opened === undefined) throw new Error(`no warmup file for ${glob} in ${this.root}`);
      await this.openFile(opened.abs, languageIdFor(this.server, opened.abs));
    }
    const line = this.server.ready.log_message;
    if (line !== null) {
      const pattern = new RegExp(line);
      await this.until(() => this.logs.some((l) => pattern.test(l)), timeoutMs, `log ${line}`);
    }
    if (this.server.ready.progress.length > 0) {
      await this.waitProgressDone(
        this.server.ready.progress.map((p) => new RegExp(p)),
        timeoutMs,
      );
    }
  }

  /** Readiness as the bridge's `progress` condition with progress_required = true. */
  async waitProgressDone(patterns: RegExp[], timeoutMs: number): Promise<void> {
    await this.until(
      () =>
        this.progress.begunMatching(patterns) &&
        this.progress.activeMatching(patterns).length === 0,
      timeoutMs,
      `progress ${patterns.join(", ")} to begin and end`,
    );
  }

  /** How many publishes `uri` has had (for the "publish" settle rule). */
  publishes(uri: string): number {
    return this.publishCount.get(uri) ?? 0;
  }

  /** Whether the server answers `textDocument/diagnostic`, statically or registered. */
  offersPull(): boolean {
    if (this.initResult?.capabilities.diagnosticProvider !== undefined) return true;
    return [...this.registrations.values()].some((r) => r.method === "textDocument/diagnostic");
  }

  /** The diagnostics of `uri`'s latest publish (none yet: empty). */
  latest(uri: string): Diagnostic[] {
    return this.published.get(uri)?.diagnostics ?? [];
  }

  /**
   * The diagnostics for `uri` once settled by the server's rule (SPEC §6): "version" — a
   * publish carrying at least `version`; "publish" — any publish after `publishesBefore`.
   */
  async diagnosticsFor(
    uri: string,
    settle: { version: number } | { publishesBefore: number },
    timeoutMs: number,
  ): Promise<unknown[]> {
    await this.until(
      () =>
        "version" in settle
          ? (this.published.get(uri)?.version ?? -1) >= settle.version
          : this.publishes(uri) > settle.publishesBefore,
      timeoutMs,
      `publishDiagnostics for ${uri}`,
    );
    return this.published.get(uri)?.diagnostics ?? [];
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection().sendRequest(method, params) as Promise<T>;
  }

  /** shutdown + exit (bounded), then SIGKILL the server and whatever it started, by pid. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) {
      removeServerTmp(this.tmp);
      return;
    }
    const tree = [child.pid, ...descendantsOf(child.pid)].map((pid) => new Watched("direct", pid));
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 3000);
    });
    const polite = (async () => {
      try {
        await this.conn?.sendRequest("shutdown");
        await this.conn?.sendNotification("exit");
      } catch {
        // the server may already be gone
      }
      await exited;
    })();
    await Promise.race([polite, bound]);
    clearTimeout(timer);
    this.conn?.dispose();
    for (const w of tree) w.kill();
    removeServerTmp(this.tmp);
    this.unregister();
  }
}
