/**
 * A scriptable fake language server (SPEC §11) for fault-path tests. Run as
 * `bun test/fake-server/fake-ls.ts [--scenario <json>]`, scenario keys in
 * ./scenario.ts. It speaks real LSP over stdio (vscode-languageserver-protocol)
 * and, on request, misbehaves: crashes, dies by a signal, hangs in shutdown,
 * ignores stdin EOF, writes garbage, leaves daemon grandchildren behind.
 */
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import {
  createMessageConnection,
  type DataCallback,
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
import { restoreDefaultSignal } from "../../src/process/libc.ts";
import {
  type DaemonSpec,
  DEFAULT_CAPABILITIES,
  DEFAULT_GARBAGE,
  daemonsOf,
  loadScenario,
  type Scenario,
} from "./scenario.ts";

const METHOD_NOT_FOUND = -32601;

function writePidfile(path: string, pid: number): void {
  const tmp = `${path}.${pid}.tmp`;
  writeFileSync(tmp, String(pid));
  renameSync(tmp, path);
}

function spawnDaemon(spec: DaemonSpec): void {
  const script = `${import.meta.dir}/daemon.ts`;
  if (spec.kind === "group") {
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

function main(): void {
  let scenario: Scenario;
  try {
    scenario = loadScenario(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`fake-ls: bad scenario: ${(err as Error).message}\n`);
    process.exit(2);
  }
  if (scenario.pidfile_server !== undefined) writePidfile(scenario.pidfile_server, process.pid);
  for (const line of scenario.stderr_lines ?? []) process.stderr.write(`${line}\n`);
  for (const daemon of daemonsOf(scenario)) spawnDaemon(daemon);
  if (scenario.crash_after_ms !== undefined) {
    setTimeout(() => crash(scenario), scenario.crash_after_ms);
  }

  const crashOn = new Set(scenario.crash_on ?? []);
  const hook = (msg: Message): void => {
    if (scenario.record !== undefined) appendFileSync(scenario.record, `${JSON.stringify(msg)}\n`);
    const method = (msg as { method?: unknown }).method;
    if (typeof method === "string" && crashOn.has(method)) crash(scenario);
  };
  const connection = createMessageConnection(
    new HookedReader(process.stdin, hook),
    new StreamMessageWriter(process.stdout),
  );

  let shutdownReceived = false;
  connection.onRequest(InitializeRequest.type, () => ({
    capabilities: scenario.capabilities ?? DEFAULT_CAPABILITIES,
    serverInfo: scenario.serverInfo ?? { name: "fake-ls", version: "0.0.0" },
  }));
  connection.onNotification(InitializedNotification.type, () => {
    if (scenario.garbage_stdout !== undefined && scenario.garbage_stdout !== false) {
      const text = scenario.garbage_stdout === true ? DEFAULT_GARBAGE : scenario.garbage_stdout;
      process.stdout.write(text);
    }
  });
  connection.onRequest(ShutdownRequest.method, () => {
    shutdownReceived = true;
    if (scenario.hang_on_shutdown === true) return new Promise<never>(() => {});
    return null;
  });
  // LSP: exit code 0 after shutdown, 1 without.
  connection.onNotification(ExitNotification.type, () => process.exit(shutdownReceived ? 0 : 1));
  // Echo, for relay tests (round trips, large payloads, latency).
  connection.onRequest("fake/echo", (params: unknown) => params);
  connection.onRequest((method: string) => {
    const responses = scenario.responses ?? {};
    if (Object.hasOwn(responses, method)) return responses[method];
    return new ResponseError(METHOD_NOT_FOUND, `fake-ls: no response scripted for ${method}`);
  });

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
