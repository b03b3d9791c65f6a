/**
 * The cost of a current answer for many files: `diagnostics {files: [20 changed files]}`
 * through the bridge against a direct client that sends the same 20 changes (didChange)
 * and waits for every file's answer — each file's pull (a server that offers pull) or a
 * publish that shows the file's new state (one that pushes) — on typescript-language-server
 * and pyright, interleaved (bench/pair.ts). Every round flips all 20 files between clean
 * and one type error each, on disk in both roots. Target: bridge p50 ≤ 1.5 × direct p50
 * (docs/PERFORMANCE.md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic, DocumentDiagnosticReport } from "vscode-languageserver-protocol";
import type { ServerConfig } from "../src/config/types.ts";
import { findPyright, findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { type BenchOptions, count, makeTempDir, parseOptions, removeDir } from "./common.ts";
import { type Case, directOpen, type Pair, runCases, startPair } from "./pair.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "diagnostics-files";
const MODULES = 40;
const CHANGED = 20;
const SETTLE_TIMEOUT_MS = 60_000;

interface Language {
  label: string;
  /** workspace-relative path of module i */
  path(i: number): string;
  /** module i's text, with or without its one type error */
  text(i: number, broken: boolean): string;
  config: { file: string; text: string };
}

const TS: Language = {
  label: "tls",
  path: (i) => `src/m${i}.ts`,
  text: (i, broken) =>
    [
      i > 0 ? `import { f${i - 1} } from "./m${i - 1}";` : "",
      `export function f${i}(x: number): number {`,
      `  return ${i > 0 ? `f${i - 1}(x)` : "x"} + 1;`,
      "}",
      broken ? `export const bad${i}: number = "not a number";` : "",
      "",
    ].join("\n"),
  config: {
    file: "tsconfig.json",
    text: JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
  },
};

const PY: Language = {
  label: "pyright",
  path: (i) => `pkg/m${i}.py`,
  text: (i, broken) =>
    [
      i > 0 ? `from pkg.m${i - 1} import f${i - 1}` : "",
      "",
      `def f${i}(x: int) -> int:`,
      `    return ${i > 0 ? `f${i - 1}(x)` : "x"} + 1`,
      broken ? `\n\nbad${i}: int = "not a number"` : "",
      "",
    ].join("\n"),
  config: { file: "pyrightconfig.json", text: JSON.stringify({ include: ["pkg"] }) },
};

function materialize(lang: Language, root: string): void {
  for (let i = 0; i < MODULES; i++) {
    const abs = join(root, lang.path(i));
    mkdirSync(join(abs, ".."), { recursive: true });
    writeFileSync(abs, lang.text(i, false));
  }
  if (lang === PY) writeFileSync(join(root, "pkg", "__init__.py"), "");
  writeFileSync(join(root, lang.config.file), lang.config.text);
}

const errors = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 1).length;

/**
 * The direct client's answer for the changed files: didChange each, then every file's
 * pull (all at once) or, for a pushing server, a publish after the change whose errors
 * match the file's new text — what a client that knows the answer waits for.
 */
async function directFiles(pair: Pair, files: string[], broken: boolean): Promise<number> {
  const uris = await Promise.all(files.map((f) => directOpen(pair, f)));
  const before = uris.map((uri) => pair.direct.publishes(uri));
  for (const f of files) await pair.direct.changeFile(join(pair.directRoot, f));
  if (pair.direct.offersPull()) {
    const reports = await Promise.all(
      uris.map((uri) =>
        pair.direct.request<DocumentDiagnosticReport>("textDocument/diagnostic", {
          textDocument: { uri },
        }),
      ),
    );
    return reports.reduce((n, r) => n + ("items" in r ? errors(r.items) : 0), 0);
  }
  let total = 0;
  for (const [k, uri] of uris.entries()) {
    const want = broken ? 1 : 0;
    let got = -1;
    await pair.direct.until(
      () => {
        if (pair.direct.publishes(uri) <= (before[k] as number)) return false;
        got = errors(pair.direct.latest(uri));
        return got === want;
      },
      SETTLE_TIMEOUT_MS,
      `${uri}'s publish with ${want} errors`,
    );
    total += got;
  }
  return total;
}

function filesCase(pair: Pair, lang: Language): Case {
  const files = Array.from({ length: CHANGED }, (_, k) => lang.path(2 * k));
  const broken = (i: number) => i % 2 === 0;
  let round = 0;
  return {
    name: `diagnostics files (${CHANGED} changed)`,
    warmup: 2,
    prepare: (i) => {
      round = i;
      for (const root of [pair.bridgeRoot, pair.directRoot]) {
        for (let k = 0; k < CHANGED; k++) {
          writeFileSync(join(root, lang.path(2 * k)), lang.text(2 * k, broken(i)));
        }
      }
    },
    bridge: async () => {
      const r = await pair.bridge.callOk("diagnostics", { files });
      const items = (r.structured.diagnostics ?? []) as { severity: string }[];
      if (r.structured.settled === false) throw new Error("bridge answer not settled");
      return items.filter((d) => d.severity === "error").length;
    },
    direct: () => directFiles(pair, files, broken(round)),
  };
}

async function measure(lang: Language, server: ServerConfig, opts: BenchOptions) {
  const dir = makeTempDir(`diagnostics-files-${lang.label}`);
  let pair: Pair | undefined;
  try {
    const bridgeRoot = join(dir, "bridge");
    const directRoot = join(dir, "direct");
    materialize(lang, bridgeRoot);
    materialize(lang, directRoot);
    pair = await startPair(server, bridgeRoot, directRoot, dir, () => []);
    const [r] = await runCases([filesCase(pair, lang)], count(opts, 20, 4), 2);
    if (r === undefined) return [];
    const { bridge, direct } = r.counts;
    const note =
      bridge !== direct ? `error counts differ (bridge ${bridge}, direct ${direct})` : undefined;
    const ratios = r.bridge.map((b, k) => b / (r.direct[k] as number));
    return [
      metric(GROUP, `${lang.label} ${r.name}: bridge`, "ms", r.bridge),
      metric(GROUP, `${lang.label} ${r.name}: direct client`, "ms", r.direct),
      metric(
        GROUP,
        `${lang.label} ${r.name}: bridge ÷ direct (paired)`,
        "×",
        ratios,
        [{ stat: "p50", max: 1.5 }],
        note,
      ),
    ];
  } finally {
    await pair?.close();
    removeDir(dir);
  }
}

export async function runDiagnosticsFiles(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  const servers: [Language, ServerConfig | undefined][] = [
    [TS, (await findTypescriptLanguageServer())?.config],
    [PY, (await findPyright())?.config],
  ];
  for (const [lang, server] of servers) {
    if (server === undefined) {
      out.push(metric(GROUP, `${lang.label}: files`, "ms", null, [], "not measured: no server"));
    } else out.push(...(await measure(lang, server, opts)));
  }
  return out;
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runDiagnosticsFiles(parseOptions(process.argv)));
}
