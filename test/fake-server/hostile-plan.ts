/**
 * What the hostile server does (./hostile-ls.ts), as data: a list of actions run after
 * `initialized` (or when a request of method `on` arrives) — framed messages written in
 * random pieces, raw bytes, floods of notifications and requests, wide, many-keyed and
 * deep JSON inside otherwise valid messages, stderr without end, a closed stdout, an
 * exit, a hopping daemon — and the seeded generator of such lists for the hostile-server
 * fuzz. The same seed gives the same actions on every machine.
 */
import { Prng } from "../support/prng.ts";

export type Flood =
  | "register"
  | "progress"
  | "publish"
  | "log"
  | "create"
  | "configuration"
  | "unknown_request"
  | "apply_edit"
  | "deep_response";

/** Generated JSON (`shapedJson`): what parsing makes far larger than its bytes, or deep. */
export type Shape =
  | "objects"
  | "arrays"
  | "numbers"
  | "keys"
  | "shapes"
  | "deep"
  | "string"
  /** ordinary diagnostics, each a different message (what a big project's server sends) */
  | "diagnostics"
  /** diagnostics with every text at the store's cap (`cappedDiagnostic`) */
  | "capped_diagnostics"
  /** the same with `data` at its cap too */
  | "capped_with_data";

/** Where a generated payload goes, in an otherwise valid message (`shapedMessage`). */
export type Into =
  /** the params of an unknown notification */
  | "notification"
  /** `_meta` of a `$/progress` end */
  | "meta"
  /** the message of a diagnostic of a.fake */
  | "publish_message"
  /** the data of a diagnostic of a.fake */
  | "publish_data"
  /** the diagnostics of a.fake */
  | "publish_list"
  /** `_meta` of a `window/workDoneProgress/create` request */
  | "request_meta"
  /** the items of a `workspace/configuration` request */
  | "configuration"
  /** `_meta` of the answer to the next request */
  | "response";

export type Action =
  /** one framed message; `cuts`: fractions of its bytes where the write is split */
  | { do: "send"; message: unknown; cuts?: number[]; header?: string }
  /** `prefix`, `bytes` of `unit` repeated, `suffix`, straight onto stdout (a header without end…) */
  | { do: "raw"; unit: string; bytes: number; prefix?: string; suffix?: string }
  /** `bytes` of `unit` repeated onto stderr: no newline unless `unit` has one */
  | { do: "stderr"; unit: string; bytes: number }
  /** `count` messages of a kind; `chars`: the size of their texts */
  | { do: "flood"; kind: Flood; count: number; chars?: number; outside?: boolean }
  /** `count` messages with a payload of `shape`, about `bytes` bytes, put `into` them */
  | { do: "shaped"; into: Into; shape: Shape; bytes: number; count?: number }
  /** answer the next request with a result of about `bytes` bytes */
  | { do: "answer_big"; bytes: number }
  | { do: "close_stdout" }
  /** read nothing more from stdin (the bridge's writes pile up) */
  | { do: "stop_reading" }
  | { do: "exit"; code: number }
  | { do: "signal"; name: "SIGKILL" | "SIGSEGV" | "SIGTERM" }
  /** a daemon that leaves the session and re-forks every interval_ms (./hopper.ts) */
  | { do: "hop"; tag: string; interval_ms: number; lifetime_ms: number };

export interface HostilePlan {
  /** run the actions when a request of this method arrives (default: after `initialized`) */
  on?: string;
  actions?: Action[];
  /** the hover answer's markdown, `prefix` + `count` × `unit` + `suffix` (else null) */
  hover?: { prefix: string; unit: string; count: number; suffix: string };
  /** appends `begin` and `end` lines around the actions */
  marker?: string;
  /** the workspace root (floods name files inside it, and outside) */
  root?: string;
  /** fuzz: each server life appends a line here; the count picks the seed `seed + n` */
  runs_file?: string;
  seed?: number;
  /** fuzz: the tag of hopping daemons (found by the tests in command lines) */
  tag?: string;
  /** the bridge's answers to the server's requests: a line each, `<id> <result|code> <bytes>` */
  answers_file?: string;
}

const MIB = 1 << 20;

/** About the size of one generated diagnostic: `bytes / DIAGNOSTIC_BYTES` of them. */
export const DIAGNOSTIC_BYTES = 150;

/**
 * One diagnostic with every field at what the store keeps of it (src/session/diagnostic-caps.ts):
 * a message of 16,384 characters, code and source of 256, 32 notes with 4,096-character
 * messages in another file and, `withData`, `data` of 16 KiB of `{}`. Words and
 * `file:line:col` positions throughout, so matching blanks them (SPEC §6.1); `i` makes
 * each one different.
 */
export function cappedDiagnostic(i: number, withData: boolean): string {
  const words = (n: number) => `n${i} a.c:${i}:7 ${"word ".repeat(n)}`.slice(0, n);
  const range = (line: number) =>
    `{"start":{"line":${line},"character":0},"end":{"line":${line},"character":4}}`;
  const note = (k: number) =>
    `{"location":{"uri":"file:///elsewhere/notes.c","range":${range(k)}},"message":"${words(4096)}"}`;
  const notes = Array.from({ length: 32 }, (_, k) => note(k)).join(",");
  const data = withData ? `,"data":[${"{},".repeat(5460)}{}]` : "";
  const code = `${"c".repeat(250)}${String(i).padStart(6, "0")}`;
  return `{"range":${range(0)},"severity":1,"code":"${code}","source":"${"s".repeat(256)}","message":"${words(16_384)}","relatedInformation":[${notes}]${data}}`;
}

/** `n` items of `item(i)` joined by commas, built in pieces (no array of millions). */
function repeated(n: number, item: (i: number) => string): string {
  let out = "";
  let piece: string[] = [];
  for (let i = 0; i < n; i++) {
    piece.push(item(i));
    if (piece.length === 65_536 || i === n - 1) {
      out += (out === "" ? "" : ",") + piece.join(",");
      piece = [];
    }
  }
  return out;
}

/** A JSON text of about `bytes` bytes whose shape parsing makes costly. */
export function shapedJson(shape: Shape, bytes: number): string {
  switch (shape) {
    case "objects":
      return `[${"{},".repeat(Math.max(0, Math.floor(bytes / 3) - 1))}{}]`;
    case "arrays":
      return `[${"[],".repeat(Math.max(0, Math.floor(bytes / 3) - 1))}[]]`;
    case "numbers":
      return `[${"0,".repeat(Math.max(0, Math.floor(bytes / 2) - 1))}0]`;
    case "keys":
      return `{${repeated(Math.floor(bytes / 12), (i) => `"k${i}":0`)}}`;
    case "shapes":
      return `[${repeated(Math.floor(bytes / 14), (i) => `{"k${i}":0}`)}]`;
    case "deep": {
      const n = Math.floor(bytes / 2);
      return `${"[".repeat(n)}${"]".repeat(n)}`;
    }
    case "string":
      return `"${"s".repeat(bytes)}"`;
    case "diagnostics": {
      const range = '{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}';
      const item = (i: number) =>
        `{"range":${range},"severity":2,"code":"E${i % 100}","source":"fake","message":"diagnostic number ${i}","tags":[1],"relatedInformation":[]}`;
      return `[${repeated(Math.floor(bytes / DIAGNOSTIC_BYTES), item)}]`;
    }
    case "capped_diagnostics":
    case "capped_with_data": {
      const withData = shape === "capped_with_data";
      const n = Math.floor(bytes / cappedDiagnostic(0, withData).length);
      return `[${repeated(n, (i) => cappedDiagnostic(i, withData))}]`;
    }
  }
}

/** One message carrying `json` where `into` says; `id` for requests and the answer. */
export function shapedMessage(into: Into, json: string, root: string, id: unknown): string {
  const uri = JSON.stringify(`file://${root}/a.fake`);
  const range = '{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}';
  const publish = (diagnostic: string) =>
    `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":${uri},"diagnostics":[${diagnostic}]}}`;
  const request = (method: string, params: string) =>
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"${method}","params":${params}}`;
  switch (into) {
    case "notification":
      return `{"jsonrpc":"2.0","method":"x/wide","params":{"p":${json}}}`;
    case "meta":
      return `{"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":{"kind":"end"},"_meta":${json}}}`;
    case "publish_message":
      return publish(`{"range":${range},"severity":1,"message":${json}}`);
    case "publish_data":
      return publish(`{"range":${range},"severity":1,"message":"with data","data":${json}}`);
    case "publish_list":
      return `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":${uri},"diagnostics":${json}}}`;
    case "request_meta":
      return request("window/workDoneProgress/create", `{"token":"c","_meta":${json}}`);
    case "configuration":
      return request("workspace/configuration", `{"items":${json}}`);
    case "response":
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"contents":"shaped","_meta":${json}}}`;
  }
}

/**
 * What a hop's command line carries for a plan's `tag`: never the tag alone, which the
 * server's own arguments (the plan) hold too.
 */
export function hopTag(tag: string): string {
  return `${tag}:hop`;
}

/** The tag of the daemons of the n-th life of a fuzz. */
export function lifeTag(tag: string, n: number): string {
  return `${tag}-${n}`;
}

/** The seed of one server life of a fuzz: `base + n` for the n-th life. */
export function lifeSeed(base: number, n: number): number {
  return (base + n) >>> 0;
}

function message(r: Prng, root: string): unknown {
  const uri = r.chance(0.5) ? `file://${root}/a.fake` : `file:///elsewhere/${r.int(0, 99)}.fake`;
  return r.pick([
    { jsonrpc: "2.0", method: "window/logMessage", params: { type: 3, message: "hi" } },
    { jsonrpc: "2.0", method: "textDocument/publishDiagnostics", params: { uri, diagnostics: [] } },
    { jsonrpc: "2.0", method: "$/progress", params: { token: "t", value: { kind: "end" } } },
    { jsonrpc: "2.0", id: r.int(1, 1e6), result: { unasked: true } },
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "null id" } },
    {
      jsonrpc: "2.0",
      method: "experimental/serverStatus",
      params: { health: "ok", quiescent: true },
    },
  ]);
}

/** Where generated JSON goes in the fuzz: every kind of message, `_meta` and `data` fields. */
const INTO: readonly Into[] = [
  "notification",
  "meta",
  "publish_data",
  "publish_message",
  "request_meta",
  "configuration",
  "response",
];
/** The shapes that cost the parse most (every one but ordinary diagnostics). */
export const COSTLY_SHAPES: readonly Shape[] = [
  "objects",
  "arrays",
  "numbers",
  "keys",
  "shapes",
  "deep",
  "string",
];
const KIB = 1024;
/** Sizes each shape parses within the bridge's bounds at (SPEC §8.2), and sizes past them. */
const WITHIN: Record<Shape, readonly number[]> = {
  objects: [64 * KIB, MIB, 2 * MIB],
  arrays: [64 * KIB, MIB, 2 * MIB],
  numbers: [64 * KIB, MIB, 3 * MIB],
  keys: [64 * KIB, 512 * KIB],
  shapes: [64 * KIB, 512 * KIB],
  deep: [64 * KIB, MIB],
  string: [64 * KIB, MIB, 8 * MIB],
  diagnostics: [64 * KIB],
  capped_diagnostics: [MIB],
  capped_with_data: [MIB],
};
const PAST: Record<Shape, number> = {
  objects: 31 * MIB,
  arrays: 8 * MIB,
  numbers: 8 * MIB,
  keys: 2 * MIB,
  shapes: 2 * MIB,
  deep: 4 * MIB,
  string: 64 * MIB,
  diagnostics: 31 * MIB,
  capped_diagnostics: 31 * MIB,
  capped_with_data: 31 * MIB,
};

/** Wide, many-keyed or deep JSON inside an otherwise valid message, within the bounds or past them. */
function shaped(r: Prng, within: boolean): Action {
  const shape = r.pick(COSTLY_SHAPES);
  const into = r.pick(INTO);
  const bytes = within ? r.pick(WITHIN[shape]) : PAST[shape];
  return { do: "shaped", into, shape, bytes, count: within ? r.pick([1, 1, 2]) : 1 };
}

/** One action that leaves the server speaking LSP (so more may follow). */
function benign(r: Prng, root: string, tag: string): Action {
  switch (r.int(0, 8)) {
    case 0: {
      const cuts = Array.from({ length: r.int(1, 4) }, () => r.next()).sort();
      const header = r.pick([
        "",
        "content-length",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8",
      ]);
      return { do: "send", message: message(r, root), cuts, header };
    }
    case 1:
      return {
        do: "flood",
        kind: r.pick<Flood>([
          "register",
          "progress",
          "publish",
          "log",
          "create",
          "configuration",
          "unknown_request",
          "apply_edit",
          "deep_response",
        ]),
        count: r.pick([10, 1000, 20_000]),
        chars: r.pick([8, 1024, 64 * 1024]),
        outside: r.chance(0.5),
      };
    case 2:
      return {
        do: "stderr",
        unit: r.pick(["#", "\r50%", "line\n", "\u00e9"]),
        bytes: r.int(1, 32) * MIB,
      };
    case 3:
      return { do: "answer_big", bytes: r.pick([1024, MIB, 8 * MIB]) };
    case 4:
      return { do: "hop", tag, interval_ms: 1, lifetime_ms: 15_000 };
    case 5:
    case 6:
      return shaped(r, true);
    default:
      return { do: "send", message: message(r, root) };
  }
}

/** One action after which the server no longer speaks LSP (the last of a life). */
function terminal(r: Prng): Action {
  switch (r.int(0, 9)) {
    case 0:
      return { do: "raw", unit: "x", bytes: r.int(1, 64) * MIB };
    case 1:
      return {
        do: "raw",
        prefix: "Content-Length: 4000000000\r\n\r\n",
        unit: "{",
        bytes: r.int(1, 64) * MIB,
      };
    case 2:
      return {
        do: "raw",
        prefix: "Content-Length: 20\r\n\r\n",
        unit: "not json at all!",
        bytes: 20,
      };
    case 3: {
      // a message that is no message, nested 100,000 deep
      const n = 100_000;
      const prefix = `Content-Length: ${2 * n}\r\n\r\n`;
      return { do: "raw", prefix, unit: "[", bytes: n, suffix: "]".repeat(n) };
    }
    case 4:
      return { do: "close_stdout" };
    case 5:
      return { do: "exit", code: r.int(0, 3) };
    case 6:
      return { do: "signal", name: r.pick(["SIGKILL", "SIGSEGV", "SIGTERM"] as const) };
    case 7:
      return { do: "answer_big", bytes: 100 * MIB };
    case 8:
      return shaped(r, false);
    default:
      return { do: "raw", unit: "\r\n", bytes: 1024 };
  }
}

/** The actions of one fuzzed server life: a few benign ones, then often a terminal one. */
export function fuzzActions(seed: number, root: string, tag: string): Action[] {
  const r = new Prng(seed);
  const actions = Array.from({ length: r.int(1, 4) }, () => benign(r, root, tag));
  if (r.chance(0.6)) actions.push(terminal(r));
  return actions;
}
