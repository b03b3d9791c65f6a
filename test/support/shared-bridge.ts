/**
 * Shared bridges for the tests (SPEC §2.2): each test gets a temp dir of its own as
 * TMPDIR — its private socket directory lies there, so its daemons are its own — the
 * binary run with it (a raw line client keeping every stdout line as bytes, `call`,
 * `daemon status`), and the cleanup that kills by pid every daemon tagged with that
 * dir and the trees they run, on failure too.
 */
import { afterEach, beforeEach } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Subprocess, spawn } from "bun";
import type { Config } from "../../src/config/types.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { ensureBinary, fakeServer, writeConfig } from "./bridge.ts";
import { gone, livePidsTagged, treeOf } from "./processes.ts";
import { initializeParams } from "./raw-bridge.ts";
import { removeTempDirs, tempDir } from "./temp-dirs.ts";
import { waitFor, waitForValue, within } from "./wait.ts";

export interface DaemonStatus {
  pid: number;
  socket: string;
  roots: string[];
  clients: { name: string | null; pid: number }[];
  sessions: { workspace: string; server: string; state: string; pid: number | null }[];
  pids: number[];
}

/** One test's world: its TMPDIR, and every process it started. */
export class SharedWorld {
  readonly tmp = mkdtempSync(join(tmpdir(), "theodolite-shared-"));
  readonly env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/",
    TMPDIR: this.tmp,
  };
  private readonly clients = new Set<LineClient>();

  /** the private directory of this world's bridges */
  get socketDir(): string {
    return join(this.tmp, `theodolite-${process.getuid?.() ?? 0}`);
  }

  client(args: string[], cwd?: string): LineClient {
    const c = new LineClient([ensureBinary(), ...args], this.env, cwd);
    this.clients.add(c);
    return c;
  }

  /** Run the binary to its end (bounded): exit code, stdout, stderr; `env` added to the world's. */
  async run(
    args: string[],
    cwd?: string,
    timeoutMs = 60_000,
    env: Record<string, string> = {},
  ): Promise<{ code: number; out: string; err: string }> {
    const proc = spawn([ensureBinary(), ...args], {
      env: { ...this.env, ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      ...(cwd === undefined ? {} : { cwd }),
    });
    try {
      const [code, out, err] = await within(
        Promise.all([
          proc.exited,
          new Response(proc.stdout).text(),
          new Response(proc.stderr).text(),
        ]),
        timeoutMs,
        `theodolite ${args.join(" ")}`,
      );
      return { code, out, err };
    } finally {
      if (!gone(proc.pid)) proc.kill("SIGKILL");
    }
  }

  async status(): Promise<DaemonStatus[]> {
    const r = await this.run(["daemon", "status"]);
    if (r.code !== 0) throw new Error(`daemon status: ${r.err}`);
    return (JSON.parse(r.out) as { bridges: DaemonStatus[] }).bridges;
  }

  /** The one running bridge of this world (waits for it, bounded). */
  async only(): Promise<DaemonStatus> {
    return await waitForValue(
      async () => {
        const found = await this.status();
        return found.length === 1 ? found[0] : undefined;
      },
      20_000,
      { what: "one shared bridge" },
    );
  }

  /** Kill every client and every daemon of this world with its tree, by pid; remove the dir. */
  async cleanup(): Promise<void> {
    for (const c of this.clients) c.kill();
    this.clients.clear();
    const pids = new Set<number>();
    for (const daemon of livePidsTagged(this.tmp)) for (const p of treeOf(daemon)) pids.add(p.pid);
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    await waitFor(() => [...pids].every(gone), 10_000, { what: "the world's processes gone" });
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** An MCP client over raw stdio: requests written as lines, every stdout line kept as bytes. */
/**
 * A fresh SharedWorld for every test of the file, given to `use`; after each test its
 * bridges and clients are ended and the file's temp dirs removed.
 */
export function worldPerTest(use: (world: SharedWorld) => void): void {
  let world: SharedWorld | undefined;
  beforeEach(() => {
    world = new SharedWorld();
    use(world);
  });
  afterEach(async () => {
    await world?.cleanup();
    removeTempDirs();
  });
}

export class LineClient {
  readonly lines: string[] = [];
  /** the first answer line to each id, parsed once as it arrives (many clients share a loop) */
  private readonly answers = new Map<unknown, string>();
  stderr = "";
  readonly pid: number;
  private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  private wake: (() => void) | undefined;

  constructor(argv: string[], env: Record<string, string>, cwd?: string) {
    this.proc = spawn(argv, {
      env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      ...(cwd ? { cwd } : {}),
    });
    this.pid = this.proc.pid;
    const { stdout, stderr } = this.proc;
    void (async () => {
      let rest = "";
      const decoder = new TextDecoder();
      for await (const chunk of stdout) {
        rest += decoder.decode(chunk, { stream: true });
        const parts = rest.split("\n");
        rest = parts.pop() ?? "";
        this.lines.push(...parts);
        for (const line of parts) this.index(line);
        this.wake?.();
      }
    })();
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stderr) this.stderr += decoder.decode(chunk, { stream: true });
    })();
  }

  /** Bytes as they are, no newline added; resolves once they are written. */
  async sendRaw(text: string): Promise<void> {
    this.proc.stdin.write(text);
    await this.proc.stdin.flush();
  }

  send(message: Record<string, unknown>): void {
    this.proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    void this.proc.stdin.flush();
  }

  private index(line: string): void {
    let m: { id?: unknown; method?: unknown };
    try {
      m = JSON.parse(line) as typeof m;
    } catch {
      return; // not an answer: kept in `lines` as it came
    }
    if (m.method === undefined && !this.answers.has(m.id)) this.answers.set(m.id, line);
  }

  /** The raw line answering request `id`, bounded. */
  async answer(id: number | string, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.answers.get(id);
      if (line !== undefined) return line;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no answer to ${id} within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await within(new Promise<void>((r) => (this.wake = r)), left, `the answer to ${id}`).catch(
        () => {},
      );
    }
  }

  /** initialize as `name`, then initialized; the raw answer. */
  async initialize(name: string): Promise<string> {
    this.send({ id: 1, method: "initialize", params: initializeParams(name) });
    const line = await this.answer(1);
    this.send({ method: "notifications/initialized" });
    return line;
  }

  call(id: number, name: string, args: Record<string, unknown>): void {
    this.send({ id, method: "tools/call", params: { name, arguments: args } });
  }

  endInput(): void {
    void this.proc.stdin.end();
  }

  get exited(): Promise<number> {
    return this.proc.exited;
  }

  kill(): void {
    if (!gone(this.pid)) this.proc.kill("SIGKILL");
  }
}

/**
 * A workspace with `a.fake` and a fake server (its scenario: hover answered, one warning
 * published, requests recorded in `record`, `scenario` merged in), with these `[bridge]`
 * keys and server keys (`server`).
 */
export function fakeWorkspace(
  bridge: Record<string, unknown> = {},
  scenario: Record<string, unknown> = {},
  server: Record<string, unknown> = {},
): { root: string; config: string; record: string } {
  const root = tempDir();
  writeFileSync(join(root, "a.fake"), "alpha beta\n");
  const record = join(root, "..", `${root.split("/").pop()}.record`);
  const script = {
    capabilities: { textDocumentSync: 1, hoverProvider: true },
    responses: { "textDocument/hover": { contents: "from fake" } },
    publish_on_sync: [{ message: "unused", severity: 2, line: 0, character: 6, end_character: 10 }],
    record,
    ...scenario,
  };
  const config = writeConfig({
    bridge,
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [fakeServer("fake", script, server)],
  });
  return { root, config, record };
}

/** The arguments of a hover on `a.fake` of fakeWorkspace(), as `theodolite call` takes them. */
export const HOVER_ARGS = '{"file":"a.fake","line":1,"column":1}';

/** A validated configuration of one workspace and one server, with these `[bridge]` keys. */
export function configWith(bridge: Record<string, unknown>): Config {
  return validateConfig(
    {
      bridge,
      workspace: [{ name: "w", root: "/tmp", servers: ["s"] }],
      server: [
        {
          name: "s",
          command: "/bin/true",
          version: "1",
          languages: ["x"],
          extensions: { x: "x" },
          roles: ["semantics"],
        },
      ],
    },
    "test",
  );
}

/** Every answer of one conversation, raw: initialize, tools/list, then each tool call of `reads`. */
export async function conversation(
  c: LineClient,
  reads: readonly [string, Record<string, unknown>][],
): Promise<string[]> {
  const lines = [await c.initialize("c")];
  c.send({ id: 2, method: "tools/list" });
  lines.push(await c.answer(2));
  for (const [i, [tool, args]] of reads.entries()) {
    c.call(10 + i, tool, args);
    lines.push(await c.answer(10 + i, 180_000));
  }
  return lines;
}
