/**
 * Shared or dedicated (SPEC §2.2): a client is served by the shared bridge of its
 * user, roots, configuration and binary unless it asks for its own — `--isolated`,
 * or `bridge.shared = false` — or zero-config refused its directory (the root then
 * comes from the client's own roots, which a shared bridge cannot ask).
 */
import { resolve } from "node:path";
import { loadStart } from "../bridge.ts";
import { resolveConfigPath } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { toEnvelope } from "../errors.ts";
import { sharedTarget } from "./attach.ts";
import { Relay } from "./relay.ts";

export type SharedChoice = { shared: true } | { shared: false; why: string };

/** Whether this client shares a bridge (pure). */
export function sharedChoice(isolated: boolean, config: Config): SharedChoice {
  if (isolated) return { shared: false, why: "--isolated" };
  if (!config.bridge.shared) return { shared: false, why: "bridge.shared = false" };
  if (config.discovery?.refused) {
    return { shared: false, why: "zero-config refused the directory; the client's roots decide" };
  }
  return { shared: true };
}

/** The configuration file a bridge started for this client reads, absolute; none for zero-config. */
export function configPathFor(
  argPath: string | undefined,
  env: Record<string, string | undefined>,
  cwd: string,
): string | undefined {
  const path = resolveConfigPath(argPath, env);
  return path === undefined ? undefined : resolve(cwd, path);
}

/**
 * Serve this client through its shared bridge (the relay runs until the client's end);
 * false when it gets a dedicated one instead. A configuration that does not load or a
 * socket directory that is not private exits 2, as serve does.
 */
export async function serveShared(argPath: string | undefined): Promise<boolean> {
  const cwd = process.cwd();
  try {
    const { config } = await loadStart(argPath);
    if (!sharedChoice(false, config).shared) return false;
    const target = sharedTarget(config, configPathFor(argPath, process.env, cwd), cwd);
    void new Relay(target, {
      graceMs: config.bridge.shutdown_grace_ms,
      requestTimeoutMs: config.bridge.request_timeout_ms,
    }).run();
    return true;
  } catch (err) {
    process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
    process.exit(2);
  }
}
