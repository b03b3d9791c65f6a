/**
 * Drive the compiled bridge over MCP stdio with the SDK's own client
 * (SPEC §11: stdio suites). Builds dist/theodolite when it is missing or older
 * than the sources, writes configs to temp dirs, and always cleans up.
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { stringify } from "smol-toml";
import { removeTempDir, removeTempDirs, tempDir } from "./temp-dirs.ts";

export const REPO = join(import.meta.dir, "..", "..");
export const BINARY = join(REPO, "dist", "theodolite");
export const FAKE_LS = join(REPO, "test", "fake-server", "fake-ls.ts");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let built = false;
/** Build the binary once per test process if it is missing or stale. */
export function ensureBinary(): string {
  if (built) return BINARY;
  let fresh = false;
  try {
    fresh = statSync(BINARY).mtimeMs >= newestSource(join(REPO, "src"));
  } catch {
    fresh = false;
  }
  if (!fresh) {
    const r = Bun.spawnSync([process.execPath, join(REPO, "build.ts")], {
      cwd: REPO,
      stdout: "pipe",
      stderr: "pipe",
    });
    if (!r.success) throw new Error(`build failed: ${r.stderr.toString()}`);
  }
  built = true;
  return BINARY;
}

/**
 * A [[server]] table for the fake language server with a scenario. The fake server reads
 * nothing from disk (everything it knows comes over LSP), as `reads = []` says: no change
 * is judged for it (SPEC §5.3) unless a test says otherwise (test/session/unproven.test.ts).
 */
export function fakeServer(
  name: string,
  scenario: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  return {
    name,
    command: process.execPath,
    args: [FAKE_LS, "--scenario", JSON.stringify(scenario)],
    version: Bun.version,
    languages: ["fake"],
    extensions: { fake: "fake", txt: "fake" },
    roles: ["semantics", "diagnostics"],
    reads: [],
    ...extra,
  };
}

export interface ConfigShape {
  bridge?: Record<string, unknown>;
  workspace: Record<string, unknown>[];
  server: Record<string, unknown>[];
}

export function writeConfig(config: ConfigShape, dir = tempDir()): string {
  const path = join(dir, "bridge.toml");
  writeFileSync(path, stringify(config as unknown as Record<string, unknown>));
  return path;
}

export interface ToolResult {
  isError: boolean;
  /** structuredContent, or for an error the envelope parsed from its text */
  structured: Record<string, unknown>;
  text: string;
}

export interface BridgeHandle {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
  /** close() at the end of an `await using` scope, also when the test fails */
  [Symbol.asyncDispose](): Promise<void>;
}

const open = new Set<BridgeHandle>();

export async function startBridge(opts: {
  config?: string;
  args?: string[];
  clientName?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** directories the handle owns (e.g. its config's), removed when it closes */
  ownDirs?: string[];
  /** a command that runs the binary, e.g. `prlimit --as=N` (it must exec, keeping the pid) */
  prefix?: string[];
  /**
   * the client offers MCP roots: these, read at each roots/list (a test may change the list,
   * then call `client.sendRootsListChanged()`)
   */
  roots?: { uri: string }[];
  /** through the shared bridge (SPEC §2.2); by default the suites run a dedicated one */
  shared?: boolean;
}): Promise<BridgeHandle> {
  const bin = ensureBinary();
  const given = opts.args ?? (opts.config ? ["--config", opts.config] : []);
  const args = opts.shared === true ? given : [...given, "--isolated"];
  const [command = bin, ...prefixArgs] = [...(opts.prefix ?? []), bin];
  const transport = new StdioClientTransport({
    command,
    args: [...prefixArgs, ...args],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", ...(opts.env ?? {}) },
    stderr: "pipe",
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const { roots } = opts;
  const client = new Client(
    { name: opts.clientName ?? "theodolite-tests", version: "1.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : undefined,
  );
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
  await client.connect(transport);
  // the SDK client validates every later result against the output schema listed here
  await client.listTools();
  const pid = transport.pid;
  if (pid === null) throw new Error("bridge did not start");
  const handle: BridgeHandle = {
    client,
    transport,
    pid,
    stderr: () => stderr,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 });
      const content = r.content as { type: string; text: string }[];
      const text = content[0]?.text ?? "";
      // an error's envelope is its text (SPEC §4.6: no structuredContent on errors)
      const structured = r.isError === true ? JSON.parse(text) : r.structuredContent;
      return {
        isError: r.isError === true,
        structured: (structured ?? {}) as Record<string, unknown>,
        text,
      };
    },
    async close() {
      open.delete(handle);
      await client.close().catch(() => {});
      try {
        process.kill(pid, 0);
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
      for (const d of opts.ownDirs ?? []) removeTempDir(d);
    },
    [Symbol.asyncDispose]: () => handle.close(),
  };
  open.add(handle);
  return handle;
}

/** For afterEach/afterAll: close every bridge a test left open, even on failure. */
export async function closeAllBridges(): Promise<void> {
  await Promise.all([...open].map((h) => h.close()));
}

/** A file's afterAll: every bridge it started closed, then every temp dir it made removed. */
export async function closeBridgesAndTempDirs(): Promise<void> {
  await closeAllBridges();
  removeTempDirs();
}
