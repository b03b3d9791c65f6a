/**
 * The long-lived-against-fresh comparison of test/real/unproven.test.ts and
 * test/real/ways-out.test.ts (SPEC §5.3): each case lives in a base directory holding the
 * root (`proj`) and what lies beside it; the fresh bridge runs on a copy of the whole base.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ServerConfig } from "../../src/config/types.ts";
import type { BridgeHandle } from "./bridge.ts";
import { answer, GATED, type Probe } from "./coherence.ts";
import { requiredUnderCI, startRealBridge } from "./real-bridge.ts";
import type { RealServer } from "./real-servers.ts";
import { removeTempDirs, tempDir } from "./temp-dirs.ts";

afterAll(removeTempDirs);

/** A base directory holding `files` (paths relative to it; the root is `proj`). */
export function base(files: Record<string, string>): string {
  const dir = tempDir("theodolite-unproven-");
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  return dir;
}

export function write(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** compile_commands.json for the C files of `proj`, with `flags`, at this base's paths. */
export function compileDatabase(dir: string, files: string[], flags: string[]): void {
  const root = join(dir, "proj");
  const db = files.map((file) => ({
    directory: root,
    file: join(root, file),
    arguments: ["cc", ...flags, "-c", file],
  }));
  writeFileSync(join(root, "compile_commands.json"), JSON.stringify(db));
}

export interface Case {
  server: string;
  files: Record<string, string>;
  /** after copying: what depends on the copy's own paths (a compile database) */
  prepare?: (dir: string) => void;
  /** the server's configuration, from the one users get (the preset) */
  config?: (c: ServerConfig) => ServerConfig;
  /** the server's HOME is the base's `home` (a user's configuration beside the root) */
  home?: true;
  warm: Probe[];
  change: (dir: string) => void;
  /** a second change, after the long-lived bridge answered `probes` once in between */
  changeAgain?: (dir: string) => void;
  probes: Probe[];
}

/** An answer with the base directory's path as `<base>` (the two bases differ). */
async function inBase(b: BridgeHandle, p: Probe, dir: string): Promise<unknown> {
  const a = await answer(b, p, join(dir, "proj"));
  return JSON.parse(JSON.stringify(a).replaceAll(dir, "<base>"));
}

/** The long-lived bridge's answers after the change, and a fresh bridge's on a copy. */
export async function bothAnswers(c: Case, server: ServerConfig): Promise<[unknown[], unknown[]]> {
  const dir = base(c.files);
  c.prepare?.(dir);
  const homed = (d: string): ServerConfig =>
    c.home ? { ...server, env: { ...server.env, HOME: join(d, "home") } } : server;
  const long = await startRealBridge(join(dir, "proj"), homed(dir), GATED);
  let fresh: BridgeHandle | undefined;
  let truth: Promise<unknown[]> | undefined;
  try {
    for (const p of c.warm) await answer(long, p, join(dir, "proj"));
    c.change(dir);
    if (c.changeAgain) {
      for (const p of c.probes) await answer(long, p, join(dir, "proj"));
      c.changeAgain(dir);
    }
    const copy = tempDir("theodolite-unproven-fresh-");
    cpSync(dir, copy, { recursive: true, filter: (s) => !s.endsWith("/.cache") });
    c.prepare?.(copy);
    // the fresh bridge starts on its copy and asks the probes (its first calls, as before)
    // while the long-lived bridge answers them: neither waits for anything of the other's
    truth = (async () => {
      fresh = await startRealBridge(join(copy, "proj"), homed(copy), GATED);
      const out: unknown[] = [];
      for (const p of c.probes) out.push(await inBase(fresh, p, copy));
      return out;
    })();
    truth.catch(() => {}); // a failure surfaces where it is awaited
    const mine: unknown[] = [];
    for (const p of c.probes) mine.push(await inBase(long, p, dir));
    return [mine, await truth];
  } finally {
    // the fresh bridge may still be starting when the long-lived side failed
    await truth?.catch(() => {});
    await Promise.all([fresh?.close(), long.close()]);
  }
}

export const diag = (file: string): Probe => ({ tool: "diagnostics", args: { file } });

/**
 * One test per case, each on the server it names (required under CI): the long-lived
 * bridge's answers after the change equal a fresh bridge's.
 */
export function compareCases(
  title: string,
  found: Record<string, RealServer | null>,
  cases: Record<string, Case>,
): void {
  for (const name of Object.keys(found)) requiredUnderCI(name, found[name] ?? null);
  describe(title, () => {
    for (const [label, c] of Object.entries(cases)) {
      const server = found[c.server] ?? null;
      test.skipIf(!server)(label, async () => {
        if (!server) return;
        const config = c.config ? c.config(server.config) : server.config;
        const [mine, truth] = await bothAnswers(c, config);
        expect({ case: label, answers: mine }).toEqual({ case: label, answers: truth });
      });
    }
  });
}
