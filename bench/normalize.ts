/**
 * Normalization cost of a large workspace/symbol answer (docs/PERFORMANCE.md): 10,000 synthetic
 * SymbolInformation over 500 files, shuffled, through the bridge's pure functions —
 * position conversion (makeNormalizeContext, utf-16 server → code-point client on lines
 * with non-ASCII text), canonical ordering and de-duplication (normalizeWorkspaceSymbols),
 * paging (page) and the size cap (enforceSizeCap). In-process, no I/O: file texts come
 * from memory. No target was given; reported for information.
 */
import type { SymbolInformation } from "vscode-languageserver-protocol";
import { BridgeError } from "../src/errors.ts";
import { enforceSizeCap } from "../src/normalize/cap.ts";
import { page } from "../src/normalize/paging.ts";
import { makeNormalizeContext } from "../src/normalize/range-converter.ts";
import { normalizeWorkspaceSymbols } from "../src/normalize/symbols.ts";
import { lineColumnsOf } from "../src/text/line-columns.ts";
import { Prng } from "../test/support/prng.ts";
import { type BenchOptions, count, parseOptions } from "./common.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "normalize";
const SYMBOLS = 10_000;
const FILES = 500;
const ROOT = "/theodolite-bench/ws";
/** the bridge's default bridge.max_result_bytes */
const MAX_RESULT_BYTES = 262_144;
const PAGE = 200;

function shuffle<T>(items: T[], random: Prng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

interface Synthetic {
  symbols: SymbolInformation[];
  texts: Map<string, string>;
}

/** 20 symbols per file, one per line, each line led by non-ASCII text (astral included). */
function synthesize(): Synthetic {
  const perFile = SYMBOLS / FILES;
  const texts = new Map<string, string>();
  const symbols: SymbolInformation[] = [];
  const prefix = "/* é 🎯 */ int "; // 13 UTF-16 units before the name, 12 code points
  for (let f = 0; f < FILES; f++) {
    const path = `${ROOT}/src/dir${f % 10}/file${String(f).padStart(4, "0")}.c`;
    const lines: string[] = [];
    for (let s = 0; s < perFile; s++) {
      const name = `fn_${f}_${s}`;
      lines.push(`${prefix}${name}(int x);`);
      const character = prefix.length; // UTF-16 units, as a utf-16 server would report
      symbols.push({
        name,
        kind: s % 3 === 0 ? 12 : s % 3 === 1 ? 13 : 23,
        containerName: s % 2 === 0 ? `ns${f % 7}` : "",
        location: {
          uri: `file://${path}`,
          range: {
            start: { line: s, character },
            end: { line: s, character: character + name.length },
          },
        },
      });
    }
    texts.set(path, `${lines.join("\n")}\n`);
  }
  return { symbols, texts };
}

function context(texts: Map<string, string>) {
  return makeNormalizeContext({
    root: ROOT,
    rootReal: ROOT,
    encoding: "utf-16",
    unit: "code-point",
    tables: {
      get: (abs) => {
        const text = texts.get(abs);
        return text === undefined ? undefined : lineColumnsOf(text);
      },
    },
  });
}

type Pipeline = (input: SymbolInformation[], texts: Map<string, string>) => void;

const PIPELINES: { name: string; run: Pipeline }[] = [
  {
    name: `normalize + canonical order, ${SYMBOLS} symbols`,
    run: (input, texts) => {
      const out = normalizeWorkspaceSymbols(input, context(texts));
      if (out.length !== SYMBOLS) throw new Error(`expected ${SYMBOLS}, got ${out.length}`);
    },
  },
  {
    name: `… + page(limit ${PAGE}) + size cap`,
    run: (input, texts) => {
      const p = page(normalizeWorkspaceSymbols(input, context(texts)), { limit: PAGE, offset: 0 });
      enforceSizeCap(
        { symbols: p.items, total: p.total, next_offset: p.next_offset },
        PAGE,
        MAX_RESULT_BYTES,
      );
    },
  },
  {
    name: `… + size cap of all ${SYMBOLS} (ResultTooLarge)`,
    run: (input, texts) => {
      const p = page(normalizeWorkspaceSymbols(input, context(texts)), {
        limit: undefined,
        offset: 0,
      });
      try {
        enforceSizeCap({ symbols: p.items, total: p.total }, p.items.length, MAX_RESULT_BYTES);
      } catch (err) {
        if (err instanceof BridgeError && err.code === "ResultTooLarge") return;
        throw err;
      }
      throw new Error("expected ResultTooLarge for the full list");
    },
  },
];

export async function runNormalize(opts: BenchOptions): Promise<Metric[]> {
  const { symbols, texts } = synthesize();
  const random = new Prng(7); // the same shuffles on every run
  const iterations = count(opts, 60, 15);
  const warmup = 5;
  const metrics: Metric[] = [];
  for (const pipeline of PIPELINES) {
    const samples: number[] = [];
    for (let i = 0; i < warmup + iterations; i++) {
      const input = [...symbols];
      shuffle(input, random); // outside the timed region
      const start = performance.now();
      pipeline.run(input, texts);
      const ms = performance.now() - start;
      if (i >= warmup) samples.push(ms);
    }
    metrics.push(metric(GROUP, pipeline.name, "ms", samples));
  }
  return metrics;
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runNormalize(parseOptions(process.argv)));
}
