/**
 * A scriptable fake language server (SPEC §11) for fault-path tests. Run as
 * `bun test/fake-server/fake-ls.ts [--scenario <json>]`, scenario keys in
 * ./scenario.ts. It speaks real LSP over stdio (vscode-languageserver-protocol)
 * and, on request, misbehaves: crashes, dies by a signal, hangs in shutdown,
 * ignores stdin EOF, writes garbage, leaves daemon grandchildren behind; and
 * it plays readiness signals, asks the client things, tracks documents and
 * answers from data (./answers.ts, ./behaviour.ts), recording what it saw
 * (./state.ts) for tests to check.
 */
import { appendFileSync, readlinkSync, renameSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import {
  type CancellationToken,
  createMessageConnection,
  type DataCallback,
  DidChangeTextDocumentNotification,
  type DidChangeTextDocumentParams,
  DidCloseTextDocumentNotification,
  type DidCloseTextDocumentParams,
  DidOpenTextDocumentNotification,
  type DidOpenTextDocumentParams,
  type Disposable,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type Message,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { restoreDefaultSignal } from "../../src/ffi/process.ts";
import { Responder } from "./answers.ts";
import { Behaviour } from "./behaviour.ts";
import { hopperArgv } from "./hopper.ts";
import { matchDiagnostics, toDiagnostic } from "./results.ts";
import {
  type DaemonSpec,
  DEFAULT_CAPABILITIES,
  DEFAULT_GARBAGE,
  daemonsOf,
  loadScenario,
  type Scenario,
} from "./scenario.ts";
import { FakeState } from "./state.ts";

function writePidfile(path: string, pid: number): void {
  const tmp = `${path}.${pid}.tmp`;
  writeFileSync(tmp, String(pid));
  renameSync(tmp, path);
}

function spawnDaemon(spec: DaemonSpec): void {
  const script = `${import.meta.dir}/daemon.ts`;
  if (spec.kind === "hop") {
    const argv = hopperArgv(spec.pidfile, spec.interval_ms ?? 1, spec.lifetime_ms ?? 15_000);
    Bun.spawn(argv, { stdio: ["ignore", "ignore", "ignore"] }).unref();
  } else if (spec.kind === "group") {
    // Same process group as the server (not detached): what tsserver-like children look like.
    const stdio = spec.stdio ?? "inherit";
    Bun.spawn([process.execPath, script, "run", spec.pidfile], {
      stdio: [stdio, stdio, stdio],
    }).unref();
  } else {
    // detached = setsid in the child; it then forks the daemon and exits.
    const stdio = spec.stdio ?? "ignore";
    Bun.spawn([process.execPath, script, "double-fork", spec.pidfile], {
      stdio: [stdio, stdio, stdio],
      detached: true,
    }).unref();
  }
}

function crash(s: Scenario): never {
  if (s.exit_signal !== undefined) {
    const signo = (constants.signals as Record<string, number | undefined>)[s.exit_signal];
    if (signo === undefined) throw new Error(`unknown exit_signal ${s.exit_signal}`);
    restoreDefaultSignal(signo); // Bun ignores some (SIGPIPE, SIGXFSZ)
    process.kill(process.pid, s.exit_signal as NodeJS.Signals);
  }
  process.exit(s.exit_code ?? 3);
}

/** The stream reader, with a hook that sees every message first (record, crash_on). */
class HookedReader extends StreamMessageReader {
  constructor(
    readable: NodeJS.ReadableStream,
    private readonly hook: (msg: Message) => void,
  ) {
    super(readable);
  }

  override listen(callback: DataCallback): Disposable {
    return super.listen((msg) => {
      this.hook(msg);
      callback(msg);
    });
  }
}

/** Requests reach the one dispatcher wrapped with their id, so it can find what they triggered. */
interface Wrapped {
  id: number | string;
  params: unknown;
}

function syncDetail(method: string, params: unknown): unknown {
  if (!method.startsWith("textDocument/did")) return undefined;
  const td = (params as { textDocument?: { uri?: string; version?: number } } | null)?.textDocument;
  return td ? { uri: td.uri, version: td.version ?? null } : undefined;
}

/** Full-sync text of a didChange (the last whole-document change wins). */
function changedText(params: DidChangeTextDocumentParams): string | undefined {
  let text: string | undefined;
  for (const c of params.contentChanges ?? []) {
    if (!("range" in c) || c.range === undefined) text = c.text;
  }
  return text;
}

/** didOpen / didChange / didClose → the tracked documents. */
function trackDocument(state: FakeState, responder: Responder, method: string, raw: unknown) {
  if (method === DidOpenTextDocumentNotification.method) {
    const { uri, languageId, version, text } = (raw as DidOpenTextDocumentParams).textDocument;
    state.opened(uri, languageId, version, text);
    responder.firstUri ??= uri;
  } else if (method === DidChangeTextDocumentNotification.method) {
    const p = raw as DidChangeTextDocumentParams;
    state.changed(p.textDocument.uri, p.textDocument.version, changedText(p));
  } else if (method === DidCloseTextDocumentNotification.method) {
    state.closed((raw as DidCloseTextDocumentParams).textDocument.uri);
  }
}

function main(): void {
  let scenario: Scenario;
  try {
    scenario = loadScenario(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`fake-ls: bad scenario: ${(err as Error).message}\n`);
    process.exit(2);
  }
  // the pid /proc gives us, which the test reads (inside a PID namespace ours differs)
  const seen = Number(readlinkSync("/proc/self"));
  if (scenario.pidfile_server !== undefined) writePidfile(scenario.pidfile_server, seen);
  for (const line of scenario.stderr_lines ?? []) process.stderr.write(`${line}\n`);
  for (const daemon of daemonsOf(scenario)) spawnDaemon(daemon);
  // an attacker's move: the supervisor, our parent, stopped (inside a PID namespace, where
  // it is the init, the kernel drops the signal)
  if (scenario.stop_parent === true) process.kill(process.ppid, "SIGSTOP");
  if (scenario.crash_after_ms !== undefined) {
    setTimeout(() => crash(scenario), scenario.crash_after_ms);
  }

  const state = new FakeState(scenario.state_file);
  const responder = new Responder(scenario, state);
  let behaviour: Behaviour | undefined;
  /** what each request triggered (applyEdit, server requests), awaited before its reply */
  const triggered = new Map<number | string, Promise<void>>();
  const crashOn = new Set(scenario.crash_on ?? []);
  const hook = (msg: Message): void => {
    if (scenario.record !== undefined) appendFileSync(scenario.record, `${JSON.stringify(msg)}\n`);
    const m = msg as { method?: unknown; id?: number | string; params?: unknown };
    if (typeof m.method !== "string") return;
    if (crashOn.has(m.method)) crash(scenario);
    if (m.id !== undefined) {
      state.request(m.id, m.method, m.params);
    } else {
      state.event("in", m.method, { detail: syncDetail(m.method, m.params) });
      // tracked here, as the message arrives, so the state never shows an event
      // without its effect on the documents
      trackDocument(state, responder, m.method, m.params);
      if (m.method === "$/cancelRequest") {
        const id = (m.params as { id?: number | string } | null)?.id;
        if (id !== undefined) state.cancelled(id);
      }
    }
    const done = behaviour?.received(m.method, m.params);
    if (m.id !== undefined) {
      if (done) triggered.set(m.id, done);
      const wrapped: Wrapped = { id: m.id, params: m.params };
      m.params = wrapped;
    }
  };
  const connection = createMessageConnection(
    new HookedReader(process.stdin, hook),
    new StreamMessageWriter(process.stdout),
  );
  behaviour = new Behaviour(scenario, connection, state, () => onRunEnd());

  /** Diagnostics for the text as synced (computed now, sent after publish_delay_ms). */
  const publish = (uri: string, version: number): void => {
    if (scenario.publish_on_sync === undefined && scenario.publish_matches === undefined) return;
    const withVersion = scenario.publish_version !== false;
    const params: Record<string, unknown> = { uri };
    if (withVersion) params.version = version;
    const text = state.document(uri)?.text ?? "";
    params.diagnostics = [
      ...(scenario.publish_on_sync ?? []).map(toDiagnostic),
      ...(scenario.publish_matches ? matchDiagnostics(text, scenario.publish_matches) : []),
    ];
    newest.set(uri, params);
    if (scenario.publish_pool?.crossed === true) {
      const first = (params.diagnostics as unknown[]).slice(0, 1);
      pool.held.push(sender(uri, { ...params, diagnostics: first }));
    }
    const send = sender(uri, params);
    if (scenario.publish_pool !== undefined) pool.held.push(send);
    else if (scenario.publish_delay_ms === undefined) send();
    else setTimeout(send, scenario.publish_delay_ms);
  };
  const sender = (uri: string, params: Record<string, unknown>) => (): void => {
    const version = typeof params.version === "number" ? params.version : null;
    state.event("out", "textDocument/publishDiagnostics", { detail: { uri, version } });
    void connection.sendNotification("textDocument/publishDiagnostics", params);
  };
  /** the newest publish computed for each URI (`republish_on_close`) */
  const newest = new Map<string, Record<string, unknown>>();
  /** `publish_pool`: publishes waiting for a run's end, and those queued since one ended */
  const pool = { held: [] as (() => void)[], queued: [] as (() => void)[] };
  const drainPool = (): void => {
    for (const send of pool.queued.splice(0)) send();
  };
  const onRunEnd = (): void => {
    if (scenario.publish_pool === undefined) return;
    const ended = pool.held.splice(0);
    if (scenario.publish_pool.crossed === true) ended.reverse();
    enqueue(ended, scenario.publish_pool.delay_ms);
  };
  /** sent `delay_ms` later, or before the answer to the next pool request */
  const enqueue = (sends: (() => void)[], delayMs: number): void => {
    pool.queued.push(...sends);
    setTimeout(drainPool, delayMs);
  };

  let shutdownReceived = false;
  /** with require_configuration: nothing is answered until the client answered (TS 7, gopls) */
  let configured: Promise<void> = Promise.resolve();

  connection.onRequest(async (method: string, raw: unknown, token: CancellationToken) => {
    const { id, params } = raw as Wrapped;
    if (method === InitializeRequest.method) {
      if (scenario.hang_on_initialize === true) return new Promise<never>(() => {});
      // typescript-language-server without a TypeScript it can drive fails right here
      const refused = scenario.error_on?.[method];
      if (refused !== undefined) throw new ResponseError(refused.code, refused.message);
      responder.rootUri = (params as { rootUri?: string } | null)?.rootUri ?? undefined;
      const capabilities = { ...(scenario.capabilities ?? DEFAULT_CAPABILITIES) };
      if (scenario.encoding !== undefined) capabilities.positionEncoding = scenario.encoding;
      return {
        capabilities,
        serverInfo: scenario.serverInfo ?? { name: "fake-ls", version: "0.0.0" },
      };
    }
    await configured;
    const done = triggered.get(id);
    triggered.delete(id);
    if (done) await done;
    if (method === ShutdownRequest.method) {
      shutdownReceived = true;
      if (scenario.hang_on_shutdown === true) return new Promise<never>(() => {});
      return null;
    }
    if (method === scenario.publish_pool?.method) drainPool();
    return responder.answer(method, params, token);
  });

  connection.onNotification(InitializedNotification.type, () => {
    if (scenario.garbage_stdout !== undefined && scenario.garbage_stdout !== false) {
      const text = scenario.garbage_stdout === true ? DEFAULT_GARBAGE : scenario.garbage_stdout;
      process.stdout.write(text);
    }
    const section = scenario.require_configuration?.section;
    if (section !== undefined) {
      state.event("out", "workspace/configuration", { detail: section });
      configured = connection.sendRequest("workspace/configuration", { items: [{ section }] }).then(
        (answer) => state.answer("configurationAnswers", answer),
        (err: unknown) => state.answer("configurationAnswers", { error: String(err) }),
      );
    }
    if (scenario.register_pull_diagnostics === true) {
      state.event("out", "client/registerCapability", { detail: "textDocument/diagnostic" });
      void connection
        .sendRequest("client/registerCapability", {
          registrations: [
            {
              id: "fake-pull-diagnostics",
              method: "textDocument/diagnostic",
              registerOptions: {
                documentSelector: null,
                interFileDependencies: false,
                workspaceDiagnostics: false,
              },
            },
          ],
        })
        .then(
          (result) =>
            state.answer("serverRequestAnswers", { method: "client/registerCapability", result }),
          () => {},
        );
    }
    behaviour?.initialized();
  });

  connection.onNotification(DidOpenTextDocumentNotification.type, (p: DidOpenTextDocumentParams) =>
    publish(p.textDocument.uri, p.textDocument.version),
  );
  connection.onNotification(
    DidChangeTextDocumentNotification.type,
    (p: DidChangeTextDocumentParams) => publish(p.textDocument.uri, p.textDocument.version),
  );
  connection.onNotification(DidCloseTextDocumentNotification.type, (p) => {
    const params = newest.get(p.textDocument.uri);
    if (scenario.republish_on_close !== true || params === undefined) return;
    // the file's state as it is, without a version: it is closed
    const send = sender(p.textDocument.uri, { uri: params.uri, diagnostics: params.diagnostics });
    if (scenario.publish_pool === undefined) send();
    else enqueue([send], scenario.publish_pool.delay_ms);
  });
  // LSP: exit code 0 after shutdown, 1 without.
  connection.onNotification(ExitNotification.type, () => process.exit(shutdownReceived ? 0 : 1));

  process.stdin.on("end", () => {
    if (scenario.ignore_stdin_eof === true) {
      setInterval(() => {}, 1 << 30); // stay alive with nothing left to read
      return;
    }
    process.exit(shutdownReceived ? 0 : 1);
  });
  connection.listen();
}

main();
