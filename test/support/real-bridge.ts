/**
 * Shared by the real-server suites (test/real) and the parity gate (test/parity):
 * the located server (test/support/real-servers.ts) as a `[[server]]` TOML table, a bridge
 * started on one fixture copy, and the CI rule for a missing server (SPEC §11: under CI
 * every server .ci/setup-servers installs is required; elsewhere a loud skip).
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mergeTables } from "../../src/config/merge.ts";
import { serverTable } from "../../src/config/toml.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import {
  type BridgeHandle,
  type ConfigShape,
  closeAllBridges,
  startBridge,
  type ToolResult,
  writeConfig,
} from "./bridge.ts";
import { range } from "./normalize-context.ts";
import { copyFixture, type RealServer, SETUP_HINT, skipLoudly } from "./real-servers.ts";
import { removeTempDir, removeTempDirs, tempDir } from "./temp-dirs.ts";

export { range };

export const UNDER_CI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());

/**
 * True when the server (or client) is there. Missing: under CI a failure (.ci/setup-servers
 * installs every one the suites drive), elsewhere false after a SKIPPED line — printed here
 * when `why` is given, else already printed by the findX() that returned null.
 */
export function present<T>(name: string, found: T | null, why?: string): found is T {
  if (found !== null) return true;
  if (UNDER_CI) {
    const reason = why === undefined ? "" : ` (${why})`;
    throw new Error(`${name} is missing under CI${reason}: .ci/setup-servers must install it`);
  }
  if (why !== undefined) skipLoudly(name, `${why} — ${SETUP_HINT}`);
  return false;
}

/**
 * A top-level test that `found` is there: under CI it fails when the server is missing,
 * which a `describe.skipIf(!found)` block alone would skip instead. `check` asserts what
 * "there" means (by default: located at an absolute path); `why` is as for `present`.
 */
export function requiredUnderCI(name: string, found: RealServer | null): void;
export function requiredUnderCI<T>(
  name: string,
  found: T | null,
  check: (found: T) => void,
  why?: string,
): void;
export function requiredUnderCI<T>(
  name: string,
  found: T | null,
  check: (found: T) => void = (s) => expect((s as RealServer).config.command).toStartWith("/"),
  why?: string,
): void {
  test(`${name} is installed (required under CI)`, () => {
    if (present(name, found, why)) check(found);
  });
}

/** The server `find` locates, its requiredUnderCI test declared. */
export async function requiredServer(
  name: string,
  find: () => Promise<RealServer | null>,
): Promise<RealServer | null> {
  const found = await find();
  requiredUnderCI(name, found);
  return found;
}

export interface RealBridgeOptions {
  bridge?: Record<string, unknown>;
  workspace?: Record<string, unknown>;
  clientName?: string;
  /** more servers in the same workspace (e.g. bacon-ls beside rust-analyzer) */
  extraServers?: ServerConfig[];
  /** directories removed with the bridge's config when it closes (its workspace) */
  ownDirs?: string[];
}

/** The config for one workspace `ws` at `root` served by `server` (and `extraServers`). */
export function realConfig(
  root: string,
  server: ServerConfig,
  opts: RealBridgeOptions = {},
): ConfigShape {
  const servers = [server, ...(opts.extraServers ?? [])];
  // a test's own keys laid over key by key, as everywhere tables meet (src/config/merge.ts)
  const bridge = { ready_timeout_ms: 120_000, request_timeout_ms: 60_000 };
  const workspace = { name: "ws", root, servers: servers.map((s) => s.name) };
  return {
    bridge: mergeTables(bridge, opts.bridge ?? {}),
    workspace: [mergeTables(workspace, opts.workspace ?? {})],
    server: servers.map(serverTable),
  };
}

/** Start the compiled bridge on `root` with `server`; closing it removes its config. */
export async function startRealBridge(
  root: string,
  server: ServerConfig,
  opts: RealBridgeOptions = {},
): Promise<BridgeHandle> {
  const dir = tempDir("theodolite-config-");
  try {
    const config = writeConfig(realConfig(root, server, opts), dir);
    return await startBridge({
      config,
      ownDirs: [dir, ...(opts.ownDirs ?? [])],
      ...(opts.clientName ? { clientName: opts.clientName } : {}),
    });
  } catch (err) {
    removeTempDir(dir);
    throw err;
  }
}

/** A tool call that must succeed: the structured result, or a thrown error naming the code. */
export async function ok(
  bridge: BridgeHandle,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const r = await bridge.call(tool, args);
  if (r.isError) throw new Error(`${tool} failed: ${r.text}\nbridge stderr:\n${bridge.stderr()}`);
  return r.structured;
}

/** A tool call that must fail: its error envelope. */
export async function fails(
  bridge: BridgeHandle,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; hint?: string; details?: Record<string, unknown> }> {
  const r: ToolResult = await bridge.call(tool, args);
  if (!r.isError) throw new Error(`${tool} unexpectedly succeeded: ${r.text}`);
  return r.structured as { code: string; message: string; hint?: string };
}

/**
 * `since` `before` once the files are back as they were: nothing added, nothing removed,
 * every diagnostic of `before` unchanged.
 */
export async function nothingSince(
  bridge: BridgeHandle,
  args: Record<string, unknown>,
  before: Record<string, unknown>,
): Promise<void> {
  const back = await ok(bridge, "diagnostics", { ...args, since: before.snapshot });
  expect({ added: back.added, removed: back.removed, unchanged: back.unchanged }).toEqual({
    added: [],
    removed: [],
    unchanged: before.total,
  });
}

/**
 * Snapshot, append `tail` to `file` (an error more), revert: `since` the snapshot is empty.
 * Returns the snapshot's answer.
 */
export async function revertLeavesNothing(
  bridge: BridgeHandle,
  root: string,
  file: string,
  tail: string,
): Promise<Record<string, unknown>> {
  const path = join(root, file);
  const original = readFileSync(path, "utf8");
  const before = await ok(bridge, "diagnostics", { file });
  appendFileSync(path, tail);
  const broke = await ok(bridge, "diagnostics", { file, since: before.snapshot });
  expect((broke.added as unknown[]).length).toBeGreaterThan(0);
  writeFileSync(path, original);
  await nothingSince(bridge, { file }, before);
  return before;
}

/** `L:C–L:C` for a Range-shaped object: compact, and reads like test/fixtures/README.md. */
export function span(r: { line: number; column: number; end_line: number; end_column: number }) {
  return `${r.line}:${r.column}–${r.end_line}:${r.end_column}`;
}

/** `file L:C–L:C` for each location, in the order given. */
export function locs(result: Record<string, unknown>): string[] {
  const list = (result.locations ?? []) as Array<{
    file?: string;
    uri?: string;
    line: number;
    column: number;
    end_line: number;
    end_column: number;
  }>;
  return list.map((l) => `${l.file ?? l.uri} ${span(l)}`);
}

/** The session_status entry for the single session of the bridge after `start: true`. */
export async function startAndStatus(
  bridge: BridgeHandle,
  server?: string,
): Promise<Record<string, unknown>> {
  const status = await ok(bridge, "session_status", {
    start: true,
    ...(server ? { server } : {}),
  });
  const sessions = status.sessions as Record<string, unknown>[];
  const entry = sessions.find((s) => server === undefined || s.server === server);
  if (!entry) throw new Error(`no session entry in ${JSON.stringify(status)}`);
  return entry;
}

interface SymbolNodeOut {
  name: string;
  kind: string;
  detail?: string;
  range: { line: number; column: number; end_line: number; end_column: number };
  selection: { line: number; column: number; end_line: number; end_column: number };
  children: SymbolNodeOut[];
}

/**
 * A document_symbols tree as indented lines `name kind range / selection [detail]`,
 * children indented by two spaces: compact, and reads like test/fixtures/README.md.
 */
export function symbolTree(nodes: SymbolNodeOut[], depth = 0): string[] {
  return nodes.flatMap((n) => [
    `${"  ".repeat(depth)}${n.name} ${n.kind} ${span(n.range)} / ${span(n.selection)}${
      n.detail !== undefined ? ` [${n.detail}]` : ""
    }`,
    ...symbolTree(n.children, depth + 1),
  ]);
}

/**
 * A session_status entry after `start: true` shows a ready session whose readiness came
 * from the declared conditions: each condition starts with the given text (the preset may
 * refine details such as `(required)`), nothing pending, and a measured ready_ms.
 */
export function readyByState(entry: Record<string, unknown>, conditionPrefixes: string[]): void {
  const readiness = entry.readiness as {
    conditions: string[];
    met: string[];
    pending: string[];
    ready_ms: unknown;
  };
  const problems: string[] = [];
  if (entry.state !== "ready") problems.push(`state ${String(entry.state)}`);
  if (readiness.pending.length > 0) problems.push(`pending ${readiness.pending.join(", ")}`);
  if (typeof readiness.ready_ms !== "number" || readiness.ready_ms < 0)
    problems.push(`ready_ms ${String(readiness.ready_ms)}`);
  const conditions = readiness.conditions;
  if (
    conditions.length !== conditionPrefixes.length ||
    conditionPrefixes.some((p, i) => !conditions[i]?.startsWith(p))
  ) {
    problems.push(`conditions ${JSON.stringify(conditions)}, expected ${conditionPrefixes}`);
  }
  // conditions that cannot revert once met must be listed as met; progress and
  // quiescence may legitimately be busy again by now (re-indexing, cargo check)
  for (const c of conditions) {
    const settled = c.startsWith("warmup_") || c.startsWith("log_message") || c.startsWith("probe");
    if (settled && !readiness.met.includes(c)) problems.push(`condition not met: ${c}`);
  }
  if (readiness.met.some((m) => !conditions.includes(m))) problems.push(`met ${readiness.met}`);
  if (problems.length > 0) {
    throw new Error(`not ready by state: ${problems.join("; ")}\n${JSON.stringify(entry)}`);
  }
}

/**
 * What every real-server suite file needs: the located server's config, fixture copies
 * (servers write into their roots; tests edit files) removed afterwards, and every
 * bridge closed, even when a test failed.
 */
export function realSuite(name: string, found: RealServer | null) {
  afterAll(async () => {
    await closeAllBridges();
    removeTempDirs();
    for (const d of found?.ownDirs ?? []) rmSync(d, { recursive: true, force: true });
  });
  return {
    config(): ServerConfig {
      if (!found) throw new Error(`${name} missing`);
      return found.config;
    },
    fixture: (fixtureName: string): string => copyFixture(fixtureName),
  };
}

/** Any diagnostics snapshot id (SPEC §6.1). */
export const SNAPSHOT = expect.stringMatching(/^d[0-9a-f]{20}$/);

/**
 * The expected `diagnostics` answer covering `files` with these items; `complete` only for
 * workspace-wide answers (SPEC §6, §6.1).
 */
export function diagnosticsFor(files: string[], diagnostics: unknown[], complete?: boolean) {
  return {
    diagnostics,
    total: diagnostics.length,
    files: [...files].sort(),
    ...(complete === undefined ? {} : { complete }),
    snapshot: SNAPSHOT,
  };
}

/** One expected diagnostic: in `file` at a 1-based range, as it came (`channel`), and the rest. */
export function diagnosticAt(
  channel: "pull" | "push",
  file: string,
  at: [number, number, number, number],
  severity: string,
  rest: Record<string, unknown> = {},
) {
  return { file, ...range(...at), severity, ...rest, channels: [channel] };
}

/** A rename answer's `edit_set` (SPEC §7.3): a SHA-256, whatever the texts hashed. */
export const anyEditSet = () => expect.stringMatching(/^[0-9a-f]{64}$/);

/** A one-line rename edit as rename_preview reports it: `(line, column, end_column)`. */
export function renameEdit(newText: string) {
  return (l: number, c: number, e: number) => ({ ...range(l, c, l, e), new_text: newText });
}
