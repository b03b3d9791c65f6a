/**
 * Test-side helpers around the fake server: a workspace in a temp dir, one
 * state file per fake server (what it saw, ./state.ts), and polling on it
 * with deadlines. Tests talk to the bridge; these files are how they look at
 * the server side.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BridgeHandle, fakeServer, startBridge, writeConfig } from "../support/bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";
import {
  emptyFakeState,
  type FakeEvent,
  type FakeStateSnapshot,
  type ReceivedRequest,
} from "./state.ts";

export interface Workspace {
  /** realpath of the workspace root */
  root: string;
  path(rel: string): string;
  uri(rel: string): string;
  write(rel: string, content: string | Uint8Array, mode?: number): string;
  read(rel: string): string;
}

export function workspace(files: Record<string, string> = {}): Workspace {
  const root = realpathSync(tempDir("theodolite-ws-"));
  const ws: Workspace = {
    root,
    path: (rel) => join(root, rel),
    uri: (rel) => pathToFileURL(join(root, rel)).href,
    write(rel, content, mode) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      if (mode !== undefined) chmodSync(abs, mode);
      return abs;
    },
    read: (rel) => readFileSync(join(root, rel), "utf8"),
  };
  for (const [rel, text] of Object.entries(files)) ws.write(rel, text);
  return ws;
}

/**
 * A gated bridge's configuration whose fake server `fake` offers one code action, "Rename
 * everywhere", editing `changes` in `ws` (the write protocol's tests through the binary).
 */
export function editEverywhereConfig(opts: {
  fake: FakeProbe;
  ws: Workspace;
  changes: Record<string, unknown>;
  client: string;
  state: string;
  bridge?: Record<string, unknown>;
}): string {
  const { fake, ws, changes } = opts;
  return writeConfig({
    bridge: {
      mutation: "gated",
      mutation_allowlist: [opts.client],
      state_dir: opts.state,
      max_result_bytes: 1 << 22,
      ...opts.bridge,
    },
    workspace: [{ name: "w", root: ws.root, servers: [fake.name] }],
    server: [
      fake.server(
        {
          capabilities: { textDocumentSync: 1, codeActionProvider: true },
          publish_on_sync: [],
          code_actions: [{ title: "Rename everywhere", kind: "quickfix", edit: { changes } }],
        },
        { extensions: { fake: "fake" } },
      ),
    ],
  });
}

/** Where a named fake server writes its state and its message record. */
export class FakeProbe {
  readonly stateFile: string;
  readonly recordFile: string;

  constructor(readonly name: string) {
    const dir = tempDir("theodolite-fake-");
    this.stateFile = join(dir, "state.json");
    this.recordFile = join(dir, "record.jsonl");
  }

  /** The [[server]] table, with state_file and record added to the scenario. */
  server(scenario: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
    return fakeServer(
      this.name,
      { state_file: this.stateFile, record: this.recordFile, ...scenario },
      extra,
    );
  }

  state(): FakeStateSnapshot {
    if (!existsSync(this.stateFile)) return emptyFakeState();
    return JSON.parse(readFileSync(this.stateFile, "utf8")) as FakeStateSnapshot;
  }

  /** Every message the server received, as recorded (original params, before any wrapping). */
  records(): Record<string, unknown>[] {
    if (!existsSync(this.recordFile)) return [];
    return readFileSync(this.recordFile, "utf8")
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  requests(method: string): ReceivedRequest[] {
    return this.state().requests.filter((r) => r.method === method);
  }

  events(method: string, dir?: "in" | "out"): FakeEvent[] {
    return this.state().events.filter(
      (e) => e.method === method && (dir === undefined || e.dir === dir),
    );
  }

  /** Poll the state until `pick` returns a value (deadline, never a fixed sleep). */
  until<T>(pick: (s: FakeStateSnapshot) => T | undefined, what: string, timeoutMs = 5000) {
    return waitForValue(() => pick(this.state()), timeoutMs, { what: `${this.name}: ${what}` });
  }
}

/** A bridge over one workspace "w" and the given server tables. */
export async function bridgeFor(opts: {
  ws: Workspace;
  servers: Record<string, unknown>[];
  bridge?: Record<string, unknown>;
  clientName?: string;
  workspaces?: Record<string, unknown>[];
}): Promise<{ bridge: BridgeHandle; config: string }> {
  const config = writeConfig({
    bridge: opts.bridge ?? {},
    workspace: opts.workspaces ?? [
      { name: "w", root: opts.ws.root, servers: opts.servers.map((s) => s.name) },
    ],
    server: opts.servers,
  });
  const bridge = await startBridge({
    config,
    ...(opts.clientName !== undefined ? { clientName: opts.clientName } : {}),
  });
  return { bridge, config };
}

/**
 * The usual opening: workspace "w" of `files` (or one made already), one fake server "fake"
 * playing `scenario` with the [[server]] keys `extra`, and a bridge with the keys `bridge`.
 */
export async function fakeBridge(
  files: Record<string, string> | Workspace,
  scenario: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
  bridge: Record<string, unknown> = {},
): Promise<{ ws: Workspace; fake: FakeProbe; bridge: BridgeHandle }> {
  const ws =
    typeof files.root === "string"
      ? (files as Workspace)
      : workspace(files as Record<string, string>);
  const fake = new FakeProbe("fake");
  const started = await bridgeFor({ ws, bridge, servers: [fake.server(scenario, extra)] });
  return { ws, fake, bridge: started.bridge };
}

/** The entry of session_status for one pair. */
export async function sessionOf(
  bridge: BridgeHandle,
  workspaceName: string,
  server: string,
): Promise<Record<string, unknown>> {
  const r = await bridge.call("session_status", { workspace: workspaceName, server });
  const sessions = r.structured.sessions as Record<string, unknown>[];
  const s = sessions[0];
  if (!s) throw new Error(`no session ${workspaceName}/${server}: ${r.text}`);
  return s;
}

/** An LSP range on one line. */
export function lspRange(line: number, character: number, endCharacter: number) {
  return {
    start: { line, character },
    end: { line, character: endCharacter },
  };
}
