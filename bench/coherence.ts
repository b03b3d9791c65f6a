/**
 * What following the disk costs per call (SPEC §5): a generated workspace of 10,000 files
 * (100 directories of 100), every directory watched (a server registered `**` like
 * pyright), 64 open documents. In process, no server: a session's Documents
 * (src/session/documents.ts) whose notifications go nowhere.
 *
 * Direct comparison, interleaved: a call without coherence syncs the document it is about
 * (what every call did before); a call with coherence first follows the disk (drains the
 * watcher, one lstat per open document). The metric is the paired difference. Then the
 * same with one open document rewritten before each call, and with one file nobody has
 * open rewritten (an event for the server): the call pays for that file only. The watch's
 * memory (kernel watches and the name index, as session_status reports it) and the heap
 * growth from building it are reported too.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BridgeConfig, ServerConfig } from "../src/config/types.ts";
import { SessionContext } from "../src/session/context.ts";
import { Documents } from "../src/session/documents.ts";
import { defaultHooks } from "../src/session/hooks.ts";
import { workspaceAt } from "../test/support/workspace.ts";
import { type BenchOptions, count, makeTempDir, parseOptions } from "./common.ts";
import { type Metric, metric, pairedDifferences } from "./stats.ts";

const GROUP = "coherence";
const DIRECTORIES = 100;
const PER_DIRECTORY = 100;
const OPEN = 64;
const TARGET = { stat: "p50" as const, max: 0.2 };

function generate(root: string): string[] {
  const files: string[] = [];
  for (let d = 0; d < DIRECTORIES; d++) {
    const dir = join(root, `pkg${String(d).padStart(3, "0")}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_DIRECTORY; f++) {
      const rel = `pkg${String(d).padStart(3, "0")}/m${String(f).padStart(3, "0")}.ts`;
      writeFileSync(join(root, rel), `export const v${d}_${f} = ${d * f};\n`);
      files.push(rel);
    }
  }
  return files;
}

function follower(root: string) {
  const ws = workspaceAt(root, { maxFileBytes: 1 << 20 });
  const server = {
    name: "s",
    extensions: { ts: "typescript" },
    open_changed_files: false,
    diagnostics_progress: [],
    diagnostics_run: null,
    diagnostics_barrier: null,
    roles: ["semantics", "diagnostics"],
    restart_on: [],
    reload_on: [],
    package_manifest: null,
  };
  const bridge = {
    max_file_bytes: 1 << 20,
    max_open_documents: OPEN + 1,
    max_watches: 8192,
    log: { level: "error", file: null, max_bytes: 1 << 20, max_files: 1 },
  } as BridgeConfig;
  const ctx = new SessionContext(ws, server as unknown as ServerConfig, bridge, {
    ...defaultHooks(),
    languageIdFor: () => "typescript",
  });
  ctx.registrations.set("w", {
    id: "w",
    method: "workspace/didChangeWatchedFiles",
    registerOptions: { watchers: [{ globPattern: "**" }] },
  });
  const f = new Documents(ctx, {
    notify: () => {},
    capabilities: () => undefined,
    encoding: () => "utf-16",
    barrier: async () => {},
    loaded: () => true,
  });
  return { f, ws };
}

export async function runCoherence(opts: BenchOptions): Promise<Metric[]> {
  const root = makeTempDir("coherence");
  try {
    const files = generate(root);
    Bun.gc(true);
    const heapBefore = process.memoryUsage().heapUsed;
    const { f, ws } = follower(root);
    f.disk.registrationsChanged(); // the watch: every directory, every name indexed
    Bun.gc(true);
    const heapAfter = process.memoryUsage().heapUsed;
    const open = files.filter((_, i) => i % Math.floor(files.length / OPEN) === 0).slice(0, OPEN);
    for (const rel of open) f.write(ws.read(rel));
    const target = open[0] as string;
    const iterations = count(opts, 2000, 300);
    const warmup = 50;

    /** One call: with or without following the disk first, then the call's own document. */
    const call = async (coherent: boolean): Promise<number> => {
      const t0 = performance.now();
      if (coherent) f.sync();
      await f.target(ws.read(target), "none");
      return performance.now() - t0;
    };
    const measure = async (before: (i: number) => void) => {
      const on: number[] = [];
      const off: number[] = [];
      for (let i = 0; i < warmup + iterations; i++) {
        // alternate which side goes first, so neither always sees a warmer cache
        const order = i % 2 === 0 ? [true, false] : [false, true];
        for (const coherent of order) {
          before(i);
          const ms = await call(coherent);
          if (i >= warmup) (coherent ? on : off).push(ms);
        }
        // what the baseline side left undelivered is delivered outside the timed region
        f.sync();
      }
      return pairedDifferences(on, off);
    };

    const nothing = await measure(() => {});
    const openChanged = open[OPEN / 2] as string;
    const oneOpen = await measure((i) =>
      writeFileSync(join(root, openChanged), `export const changed = ${i};\n`),
    );
    const closedChanged = files[files.length - 1] as string;
    const oneWatched = await measure((i) =>
      writeFileSync(join(root, closedChanged), `export const changed = ${i};\n`),
    );
    const status = f.status().watch;
    f.clear();
    ws.close();
    const watched = status?.watched_directories ?? 0;
    const indexed = status?.files_indexed ?? 0;
    return [
      metric(
        GROUP,
        `added per call, nothing changed (${files.length} files, ${OPEN} open)`,
        "ms",
        nothing,
        [TARGET],
      ),
      metric(GROUP, "added per call, one open document rewritten", "ms", oneOpen),
      metric(GROUP, "added per call, one watched file rewritten (not open)", "ms", oneWatched),
      metric(
        GROUP,
        `watch memory (${watched} directories, ${indexed} names)`,
        "MB",
        status ? [status.memory_bytes / 1e6] : null,
        [],
        `estimate as session_status reports it (1080 B kernel per watch); heap grew ${(
          (heapAfter - heapBefore) / 1e6
        ).toFixed(1)} MB while the watch was built`,
      ),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runCoherence(parseOptions(process.argv)));
}
