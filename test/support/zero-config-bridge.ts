/**
 * The path users run (SPEC §2.1), for the real-server suites: the compiled bridge with no
 * configuration, started in a fixture copy, finding the servers where the suites located
 * them — their directories first on PATH — with the environment that the suites' own keys
 * (test/support/discovered-server.ts) set passed through, as a user's shell would hold it
 * (an offline cargo, Go kept off the network). Discovery then configures what the suites
 * run; `expectServed` checks that it found the same binary.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { findPreset } from "../../src/config/presets.ts";
import type { DiscoveredPreset } from "../../src/config/types.ts";
import { type BridgeHandle, startBridge } from "./bridge.ts";
import { ok, startRealBridge } from "./real-bridge.ts";
import type { RealServer } from "./real-servers.ts";

const isExecutableFile = (path: string): boolean => {
  try {
    const s = statSync(path);
    return s.isFile() && (s.mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

/** The suites' own environment values for `found` (its overlay's `env`). */
function overlayEnv(found: RealServer): [string, string][] {
  return Object.entries((found.overlay.env ?? {}) as Record<string, string>);
}

/**
 * The PATH on which discovery finds `servers` where the suites located them: their
 * directories, and those of the tools their keys name (rust-analyzer's cargo), first.
 */
export function zeroConfigPath(servers: RealServer[]): string {
  const dirs = servers.flatMap((s) => [
    dirname(s.config.command),
    ...overlayEnv(s)
      .filter(([, v]) => v.startsWith("/") && isExecutableFile(v))
      .map(([, v]) => dirname(v)),
  ]);
  return [...new Set([...dirs, ...(process.env.PATH ?? "").split(":")])].join(":");
}

/** The suites' environment values their presets pass through (`env_passthrough`). */
export function zeroConfigEnv(servers: RealServer[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of servers) {
    const passed = findPreset(s.config.name)?.server.env_passthrough ?? [];
    for (const [name, value] of overlayEnv(s)) if (passed.includes(name)) env[name] = value;
  }
  return env;
}

/**
 * A PATH on which discovery finds `servers` and nothing else: a new directory `bin` in
 * `dir` of links to their binaries (under their presets' names), to the programs of their
 * version commands (a sibling CLI, `node`), and to `node` and `go`, which servers and their
 * version commands run. `links` maps each link to its target.
 */
export function linkedPath(
  dir: string,
  servers: RealServer[],
): { bin: string; links: Map<string, string> } {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const links = new Map<string, string>();
  const link = (name: string, target: string | null | undefined) => {
    const path = join(bin, name);
    if (!target || links.has(path)) return;
    symlinkSync(target, path);
    links.set(path, target);
  };
  for (const s of servers) {
    link(findPreset(s.config.name)?.binaries[0] ?? s.config.name, s.discovered.command);
    const program = s.discovered.version_command?.[0];
    if (program !== undefined) link(basename(program), program);
  }
  link("node", Bun.which("node"));
  link("go", Bun.which("go"));
  return { bin, links };
}

/**
 * The compiled bridge with no configuration, serving `root`, finding `servers` (on `path`,
 * by default where the suites located them, then this process's PATH).
 */
export function startZeroConfig(
  root: string,
  servers: RealServer[],
  path = zeroConfigPath(servers),
): Promise<BridgeHandle> {
  return startBridge({ args: [], cwd: root, env: { PATH: path, ...zeroConfigEnv(servers) } });
}

/** Discovery's row for `name` in session_status. */
export async function discoveryRow(bridge: BridgeHandle, name: string): Promise<DiscoveredPreset> {
  const status = (await ok(bridge, "session_status")) as {
    bridge: { config?: string; discovery?: { servers: DiscoveredPreset[] } };
  };
  expect(status.bridge.config).toBe("zero-config");
  const row = status.bridge.discovery?.servers.find((r) => r.name === name);
  if (!row) throw new Error(`no discovery row for ${name}: ${JSON.stringify(status.bridge)}`);
  return row;
}

/** Zero-config serves `found` with the binary (its real path) and version the suite runs. */
export async function expectServed(bridge: BridgeHandle, found: RealServer): Promise<void> {
  const row = await discoveryRow(bridge, found.config.name);
  const real = (path: string | null) => (path === null ? null : realpathSync(path));
  expect({ status: row.status, command: real(row.command), version: row.version }).toEqual({
    status: "configured",
    command: real(found.discovered.command),
    version: found.discovered.version,
  });
}

/**
 * A real-server suite's test through zero-config: a bridge with no configuration on a copy
 * made by `fixture`, serving `found` as the suite runs it; `body` asks it what the suite
 * measured. The bridge is closed afterwards, also on failure.
 */
export function zeroConfigTest(
  name: string,
  found: RealServer | null,
  title: string,
  fixture: () => string,
  body: (bridge: BridgeHandle, root: string) => Promise<void>,
): void {
  describe.skipIf(!found)(`${name} through zero-config (the path users run, SPEC §2.1)`, () => {
    test(title, async () => {
      if (!found) return;
      const root = fixture();
      await using bridge = await startZeroConfig(root, [found]);
      await expectServed(bridge, found);
      await body(bridge, root);
    });
  });
}

/**
 * The bridge of the i-th of a suite's `count` fresh sessions on `root`: the last through
 * zero-config, checked to serve what the suite runs; the others configured for `found`.
 */
export async function lastThroughZeroConfig(
  i: number,
  count: number,
  root: string,
  found: RealServer,
): Promise<BridgeHandle> {
  if (i < count - 1) return startRealBridge(root, found.config);
  const bridge = await startZeroConfig(root, [found]);
  try {
    await expectServed(bridge, found);
  } catch (err) {
    await bridge.close();
    throw err;
  }
  return bridge;
}
