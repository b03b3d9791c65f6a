/**
 * Which shared bridge a client belongs to (SPEC §2.2): the same user, workspace
 * roots, effective configuration and binary. The configuration's digest covers the
 * resolved configuration and PATH (servers and zero-config's discovery are found
 * through it); the binary's is the executable's identity — device, inode, size and
 * modification time of /proc/self/exe — and the build's provenance, so a rebuilt or
 * replaced binary gets a bridge of its own without reading the file. The socket's
 * name is derived from all four; a change of any one is another bridge.
 */
import { statSync } from "node:fs";
import type { Config } from "../config/types.ts";
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

/** The digest of an effective configuration with the PATH it resolves commands on (pure). */
export function configDigest(config: Config, path: string | undefined): string {
  return sha256(JSON.stringify({ config, path: path ?? null }));
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
    configDigest: configDigest(config, env.PATH),
    binaryDigest: binaryDigest(),
  };
}
