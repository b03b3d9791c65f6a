/**
 * "Truth is a fresh server" (SPEC §5) as a test harness: one long-lived bridge on a
 * fixture copy goes through a chain of on-disk changes made behind its back (the way an
 * agent edits with its own tools); after each change its answers are compared with
 * those of a bridge started afresh on a copy of the same files.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../src/config/types.ts";
import type { BridgeHandle } from "./bridge.ts";
import { ok, startRealBridge } from "./real-bridge.ts";
import { removeTempDir, tempDir } from "./temp-dirs.ts";

export const GATED = {
  bridge: { mutation: "gated", mutation_allowlist: ["coherence-test"] },
  clientName: "coherence-test",
};

export interface Probe {
  tool: string;
  args: Record<string, unknown>;
}

export interface Step {
  name: string;
  /** the change, made on disk with the bridge's back turned */
  change(root: string): void;
  /** the answers compared with a fresh bridge's */
  probes: Probe[];
}

/** Build outputs and server caches that never travel with a copy. */
const NOT_COPIED = new Set(["target", ".cache", "node_modules"]);

/**
 * A copy of `from` for a fresh bridge, links as they are (a relative link stays relative);
 * a compile_commands.json naming `from` is rewritten to name the copy (clangd reads its
 * paths literally). `keep`: names copied all the same (node_modules, for a dependency test).
 */
export function copyWorkspace(from: string, keep: readonly string[] = []): string {
  const dir = tempDir("theodolite-fresh-");
  cpSync(from, dir, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => {
      const name = src.split("/").pop() ?? "";
      return !NOT_COPIED.has(name) || keep.includes(name);
    },
  });
  const db = join(dir, "compile_commands.json");
  try {
    writeFileSync(db, readFileSync(db, "utf8").replaceAll(from, dir));
  } catch {
    // no compilation database in this workspace
  }
  return dir;
}

/**
 * A probe's answer, or its error text: both must match the fresh bridge's. The root's
 * absolute path (clang puts it in notes) reads `<root>`, since the two roots differ; the
 * diagnostics `snapshot` id digests those paths too and is left out, and so is `restarted`,
 * the long-lived bridge's note that it started its server afresh for this answer (SPEC §5.3).
 */
export async function answer(bridge: BridgeHandle, probe: Probe, root: string): Promise<unknown> {
  const r = await bridge.call(probe.tool, probe.args);
  const {
    snapshot: _digest,
    restarted: _note,
    ...value
  } = r.isError ? { error: r.text } : r.structured;
  return JSON.parse(JSON.stringify(value).replaceAll(root, "<root>"));
}

export async function answers(
  bridge: BridgeHandle,
  probes: Probe[],
  root: string,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const p of probes) out.push(await answer(bridge, p, root));
  return out;
}

/** A fresh bridge (the truth) and the copy it runs on. */
export interface FreshBridge {
  bridge: BridgeHandle;
  dir: string;
}

/** Nothing to do with a failure yet: it surfaces where the promise is awaited. */
function awaitedLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** How a bridge is started on a directory: configured (startRealBridge), or zero-config. */
export type Starter = (dir: string) => Promise<BridgeHandle>;

const configured =
  (server: ServerConfig, opts: Parameters<typeof startRealBridge>[2]): Starter =>
  (dir) =>
    startRealBridge(dir, server, opts);

/**
 * A bridge started by `start`, its sessions too, on a copy of `root` taken when called: it
 * may start while the caller asks the long-lived bridge, which so waits for nothing of the
 * fresh one's. End it with `closeFresh`, which removes the copy. `servers`: the sessions
 * started, all at once, each as a call for it would start it (SPEC §10), the others on the
 * first call that needs them (SPEC §9.1); without, all, one after another.
 */
export function startFreshWith(
  root: string,
  start: Starter,
  keep: readonly string[] = [],
  servers?: readonly string[],
): Promise<FreshBridge> {
  const dir = copyWorkspace(root, keep);
  return awaitedLater(
    (async () => {
      const bridge = await start(dir);
      try {
        const starts = servers?.map((server) => ({ start: true, server })) ?? [{ start: true }];
        await Promise.all(starts.map((args) => ok(bridge, "session_status", args)));
      } catch (e) {
        await closeFresh(Promise.resolve({ bridge, dir }));
        throw e;
      }
      return { bridge, dir };
    })(),
  );
}

/** startFreshWith a configured bridge for `server`. */
export function startFresh(
  root: string,
  server: ServerConfig,
  opts: Parameters<typeof startRealBridge>[2] = {},
  keep: readonly string[] = [],
): Promise<FreshBridge> {
  return startFreshWith(root, configured(server, opts), keep);
}

/** Close a fresh bridge, started or not, and remove its copy. */
export async function closeFresh(starting: Promise<FreshBridge>): Promise<void> {
  const fresh = await starting.catch(() => undefined);
  await fresh?.bridge.close();
  if (fresh) removeTempDir(fresh.dir);
}

/** What a fresh bridge started by `start` answers on a copy of `root` taken when called. */
export function freshAnswersWith(
  root: string,
  start: Starter,
  probes: Probe[],
  keep: readonly string[] = [],
): Promise<unknown[]> {
  const starting = startFreshWith(root, start, keep);
  return awaitedLater(
    (async () => {
      try {
        const { bridge, dir } = await starting;
        return await answers(bridge, probes, dir);
      } finally {
        await closeFresh(starting);
      }
    })(),
  );
}

/** freshAnswersWith a configured bridge for `server` (see startFresh). */
export function freshAnswers(
  root: string,
  server: ServerConfig,
  probes: Probe[],
  opts: Parameters<typeof startRealBridge>[2] = {},
  keep: readonly string[] = [],
): Promise<unknown[]> {
  return freshAnswersWith(root, configured(server, opts), probes, keep);
}

/** Replace a file the way `git checkout` does: unlink, then create it anew. */
export function rewrite(root: string, rel: string, text: string): void {
  const abs = join(root, rel);
  rmSync(abs, { force: true });
  writeFileSync(abs, text);
}

/** Insert `lines` lines at the top of a file. */
export function shiftLines(root: string, rel: string, lines: number): void {
  const abs = join(root, rel);
  const prefix = Array.from({ length: lines }, (_, i) => `// shifted ${i + 1}\n`).join("");
  writeFileSync(abs, prefix + readFileSync(abs, "utf8"));
}

/** Replace text in a file (the first occurrence must exist). */
export function edit(root: string, rel: string, from: string, to: string): void {
  const abs = join(root, rel);
  const text = readFileSync(abs, "utf8");
  if (!text.includes(from)) throw new Error(`${rel} does not contain ${JSON.stringify(from)}`);
  writeFileSync(abs, text.replace(from, to));
}
