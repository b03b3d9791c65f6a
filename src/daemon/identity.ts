/**
 * Which shared bridge a client belongs to (SPEC §2.2): the same user, workspace
 * roots, effective configuration and binary. The configuration's digest covers the
 * resolved configuration, PATH (servers and zero-config's discovery are found
 * through it) and the value of every variable its servers get from the client's
 * environment (the minimal set and `env_passthrough`), so a client whose servers would
 * see another environment gets another bridge; the binary's is the executable's
 * identity — device, inode, size and modification time of /proc/self/exe — and the
 * build's provenance, so a rebuilt or replaced binary gets a bridge of its own
 * without reading the file. The socket's name is derived from all four; a change of
 * any one is another bridge.
 */
import { statSync } from "node:fs";
import { FORBIDDEN_ENV_NAMES } from "../config/env-names.ts";
import { PRESETS } from "../config/presets.ts";
import type { Config } from "../config/types.ts";
import { ZERO_CONFIG_SOURCE } from "../discovery/zero-config.ts";
import { MINIMAL_ENV_NAMES } from "../process/env.ts";
import { versionLine } from "../version.ts";

export interface SharedIdentity {
  uid: number;
  roots: readonly string[];
  configDigest: string;
  binaryDigest: string;
}

function sha256(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

/**
 * The variables a server of `config` takes from the client's environment (pure, sorted):
 * the minimal set and each server's `env_passthrough` — every preset's in zero-config,
 * whose servers discovery chooses in the bridge.
 */
export function passedEnvNames(config: Config): string[] {
  const servers =
    config.source === ZERO_CONFIG_SOURCE ? PRESETS.map((p) => p.server) : config.servers;
  const names = new Set([...MINIMAL_ENV_NAMES, ...servers.flatMap((s) => s.env_passthrough)]);
  for (const name of FORBIDDEN_ENV_NAMES) names.delete(name);
  return [...names].sort();
}

/** The digest of an effective configuration with the environment it runs servers in (pure). */
export function configDigest(config: Config, env: Record<string, string | undefined>): string {
  const passed = passedEnvNames(config).map((name) => [name, env[name] ?? null]);
  return sha256(JSON.stringify({ config, path: env.PATH ?? null, env: passed }));
}

/** The digest of this binary: its file's identity and its provenance. */
export function binaryDigest(): string {
  let file = process.execPath;
  try {
    const st = statSync("/proc/self/exe");
    file = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    // no /proc: the environment check refuses to serve before this matters
  }
  return sha256(`${versionLine()}\n${file}`);
}

/** The socket's base name for an identity (pure): `<24 hex>.sock`. */
export function socketName(id: SharedIdentity): string {
  const key = JSON.stringify([id.uid, [...id.roots], id.configDigest, id.binaryDigest]);
  return `${sha256(key).slice(0, 24)}.sock`;
}

/** The identity of a configuration served by this binary for this user. */
export function identityOf(
  config: Config,
  env: Record<string, string | undefined>,
): SharedIdentity {
  return {
    uid: process.geteuid?.() ?? -1,
    roots: config.workspaces.map((w) => w.root),
    configDigest: configDigest(config, env),
    binaryDigest: binaryDigest(),
  };
}
