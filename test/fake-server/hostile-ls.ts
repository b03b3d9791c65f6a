/**
 * A malicious language server (SPEC §8, §11): `bun hostile-ls.ts --plan <json>`, plan
 * keys in ./hostile-plan.ts. It frames LSP by hand, so it can break the framing as well as
 * flood: it answers `initialize`, `shutdown` and `textDocument/hover` (with the plan's
 * text), null to any other request, and runs the plan's actions after `initialized` (or
 * on a request of method `on`). Writes to stdout and stderr are asynchronous, so it keeps
 * reading the bridge's answers while it floods. A marker file gets `begin` and `end`
 * lines around the actions: the tests' view of when the attack ran.
 */
import { appendFileSync, closeSync, readFileSync, write } from "node:fs";
import { constants } from "node:os";
import { restoreDefaultSignal } from "../../src/ffi/process.ts";
import { hopperArgv } from "./hopper.ts";
import {
  type Action,
  type Flood,
  fuzzActions,
  type HostilePlan,
  hopTag,
  lifeSeed,
  lifeTag,
  shapedJson,
  shapedMessage,
} from "./hostile-plan.ts";

const CHUNK = 1 << 16;

function planOf(argv: string[]): HostilePlan {
  const at = argv.indexOf("--plan");
  const plan = JSON.parse(argv[at + 1] ?? "{}") as HostilePlan;
  if (plan.runs_file !== undefined) {
    // one line per server life: the n-th life of a fuzz plays seed + n
    appendFileSync(plan.runs_file, `${process.pid}\n`);
    const n = readFileSync(plan.runs_file, "utf8").trim().split("\n").length - 1;
    const seed = lifeSeed(plan.seed ?? 1, n);
    plan.actions = fuzzActions(seed, plan.root ?? "/", lifeTag(plan.tag ?? "hostile", n));
    process.stderr.write(`hostile-ls life ${n} seed ${seed}: ${JSON.stringify(plan.actions)}\n`);
  }
  return plan;
}

const plan = planOf(process.argv.slice(2));
let stdoutOpen = true;
let reading = true;
let bigAnswer: number | undefined;
/** the generated JSON the next answer carries in `_meta` */
let shapedAnswer: string | undefined;
let nextId = 1;

/** fd write of the whole buffer, off the event loop, so reading goes on meanwhile. */
function writeAll(fd: number, data: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    const step = (offset: number): void => {
      if (offset >= data.length || (fd === 1 && !stdoutOpen)) {
        resolve();
        return;
      }
      write(fd, data, offset, data.length - offset, null, (err, n) =>
        err ? resolve() : step(offset + n),
      );
    };
    step(0);
  });
}

let queue: Promise<void> = Promise.resolve();
/** Writes to stdout in order (actions and answers interleave only between messages). */
function out(data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  queue = queue.then(() => writeAll(1, bytes));
  return queue;
}

function frame(message: unknown, header = ""): Buffer {
  return frameText(JSON.stringify(message), header);
}

function frameText(json: string, header = ""): Buffer {
  const body = Buffer.from(json);
  const extra = header === "" ? "" : header === "content-length" ? "" : `${header}\r\n`;
  const name = header === "content-length" ? "content-length" : "Content-Length";
  return Buffer.concat([Buffer.from(`${extra}${name}: ${body.length}\r\n\r\n`), body]);
}

/** `bytes` of `unit` repeated, in chunks of about CHUNK, to `fd`. */
async function fill(fd: number, unit: string, bytes: number): Promise<void> {
  const chunk = Buffer.from(unit.repeat(Math.max(1, Math.floor(CHUNK / Buffer.byteLength(unit)))));
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
    if (fd === 1) await out(piece);
    else await writeAll(fd, piece);
  }
}

function floodMessage(kind: Flood, i: number, chars: number, outside: boolean): unknown {
  const text = "w".repeat(chars);
  const root = plan.root ?? "/";
  switch (kind) {
    case "register": {
      const registrations = [
        {
          id: `reg-${i}`,
          method: "workspace/didChangeWatchedFiles",
          registerOptions: { watchers: [{ globPattern: `**/*.${text}` }] },
        },
      ];
      return {
        jsonrpc: "2.0",
        id: nextId++,
        method: "client/registerCapability",
        params: { registrations },
      };
    }
    case "progress":
      return {
        jsonrpc: "2.0",
        method: "$/progress",
        params: { token: `p-${i}`, value: { kind: "begin", title: text } },
      };
    case "publish": {
      const uri = outside ? `file:///elsewhere/f${i}.fake` : `file://${root}/gen/f${i}.fake`;
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
      return {
        jsonrpc: "2.0",
        method: "textDocument/publishDiagnostics",
        params: { uri, diagnostics: [{ range, message: text }] },
      };
    }
    case "log":
      return { jsonrpc: "2.0", method: "window/logMessage", params: { type: 3, message: text } };
    case "create":
      return {
        jsonrpc: "2.0",
        id: nextId++,
        method: "window/workDoneProgress/create",
        params: { token: `c-${i}` },
      };
    case "configuration":
      return {
        jsonrpc: "2.0",
        id: nextId++,
        method: "workspace/configuration",
        params: { items: [{ section: text }] },
      };
    case "unknown_request":
      return { jsonrpc: "2.0", id: nextId++, method: `x/${text.slice(0, 64)}`, params: { text } };
    case "apply_edit":
      return {
        jsonrpc: "2.0",
        id: nextId++,
        method: "workspace/applyEdit",
        params: { edit: { changes: {} } },
      };
    case "deep_response": {
      const depth = Math.min(chars, 50_000);
      return {
        jsonrpc: "2.0",
        id: 1e9 + i,
        result: JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`),
      };
    }
  }
}

async function flood(a: Extract<Action, { do: "flood" }>): Promise<void> {
  let batch: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < a.count; i++) {
    const framed = frame(floodMessage(a.kind, i, a.chars ?? 8, a.outside === true));
    batch.push(framed);
    size += framed.length;
    if (size >= CHUNK || i === a.count - 1) {
      await out(Buffer.concat(batch));
      batch = [];
      size = 0;
    }
  }
}

async function shaped(a: Extract<Action, { do: "shaped" }>): Promise<void> {
  const json = shapedJson(a.shape, a.bytes);
  if (a.into === "response") {
    shapedAnswer = json;
    return;
  }
  for (let i = 0; i < (a.count ?? 1); i++) {
    await out(frameText(shapedMessage(a.into, json, plan.root ?? "/", nextId++)));
  }
}

async function run(a: Action): Promise<void> {
  switch (a.do) {
    case "shaped":
      return shaped(a);
    case "send": {
      const bytes = frame(a.message, a.header);
      let from = 0;
      for (const cut of [...(a.cuts ?? []), 1]) {
        const to = Math.round(cut * bytes.length);
        await out(bytes.subarray(from, to));
        from = to;
      }
      return;
    }
    case "raw":
      if (a.prefix !== undefined) await out(a.prefix);
      await fill(1, a.unit, a.bytes);
      if (a.suffix !== undefined) await out(a.suffix);
      return;
    case "stderr":
      return fill(2, a.unit, a.bytes);
    case "flood":
      return flood(a);
    case "answer_big":
      bigAnswer = a.bytes;
      return;
    case "stop_reading":
      reading = false;
      setInterval(() => {}, 1 << 30); // run on, reading nothing
      return;
    case "close_stdout":
      await queue;
      stdoutOpen = false;
      closeSync(1);
      setInterval(() => {}, 1 << 30); // run on, writing nothing
      return;
    case "exit":
      await queue;
      process.exit(a.code);
      return;
    case "signal": {
      await queue;
      restoreDefaultSignal(constants.signals[a.name]);
      process.kill(process.pid, a.name);
      return;
    }
    case "hop":
      Bun.spawn(hopperArgv(hopTag(a.tag), a.interval_ms, a.lifetime_ms), {
        stdio: ["ignore", "ignore", "ignore"],
      }).unref();
      return;
  }
}

let attacked = false;
/** The actions, then the answer to the request that set them off (if one did). */
async function attack(reply?: () => Promise<void>): Promise<void> {
  if (attacked) return reply?.();
  attacked = true;
  if (plan.marker !== undefined) appendFileSync(plan.marker, `begin ${Date.now()}\n`);
  for (const a of plan.actions ?? []) await run(a);
  await reply?.();
  await queue;
  if (plan.marker !== undefined) appendFileSync(plan.marker, `end ${Date.now()}\n`);
}

function answer(id: unknown, method: string): unknown {
  if (bigAnswer !== undefined && method !== "shutdown") {
    const bytes = bigAnswer;
    bigAnswer = undefined;
    return { contents: { kind: "markdown", value: "b".repeat(bytes) } };
  }
  if (method === "initialize") {
    const capabilities = {
      textDocumentSync: 1,
      hoverProvider: true,
      definitionProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
    };
    return { capabilities, serverInfo: { name: "hostile-ls" } };
  }
  const h = plan.hover;
  if (method === "textDocument/hover" && h !== undefined) {
    return { contents: { kind: "markdown", value: h.prefix + h.unit.repeat(h.count) + h.suffix } };
  }
  return id === undefined ? undefined : null;
}

/** The bridge's answer to one of our requests, a line in the plan's `answers_file`. */
function recordAnswer(m: { id?: unknown; error?: { code?: unknown } }, bytes: number): void {
  if (plan.answers_file === undefined) return;
  const what = m.error === undefined ? "result" : String(m.error?.code);
  appendFileSync(plan.answers_file, `${JSON.stringify(m.id)} ${what} ${bytes}\n`);
}

function handle(m: { id?: unknown; method?: unknown }, bytes: number): void {
  if (typeof m.method !== "string") {
    recordAnswer(m, bytes);
    return;
  }
  if (m.method === "exit") process.exit(0);
  if (m.method === "initialized" && plan.on === undefined) void attack();
  if (m.id === undefined) return;
  const reply = () => {
    const json = shapedAnswer;
    if (json !== undefined && m.method !== "shutdown") {
      shapedAnswer = undefined;
      return out(frameText(shapedMessage("response", json, plan.root ?? "/", m.id)));
    }
    return out(frame({ jsonrpc: "2.0", id: m.id, result: answer(m.id, m.method as string) }));
  };
  void (m.method === plan.on ? attack(reply) : reply());
}

async function readLoop(): Promise<void> {
  let buffer = Buffer.alloc(0);
  for await (const chunk of Bun.stdin.stream()) {
    if (!reading) await new Promise(() => {}); // never again: the pipe fills
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) break;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
      if (buffer.length < end + 4 + length) break;
      handle(JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString()), length);
      buffer = buffer.subarray(end + 4 + length);
    }
  }
  process.exit(0);
}

void readLoop();
