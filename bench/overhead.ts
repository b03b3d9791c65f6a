/**
 * Bridge overhead per read tool (issue 5): the same request through the compiled bridge
 * and through a direct minimal LSP client (bench/pair.ts), on the same server binary and
 * workspace content, interleaved. Reported per tool: bridge p50/p95, direct p50/p95, and
 * the overhead as the p50/p95 of the paired differences (bridge − direct of the same
 * iteration). Servers: clangd on test/fixtures/c (main), typescript-language-server on
 * test/fixtures/ts, and clangd on a generated 1,000-file C workspace.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../src/config/types.ts";
import {
  copyFixture,
  findClangd,
  findTypescriptLanguageServer,
  materializeCFixture,
} from "../test/support/real-servers.ts";
import { type BenchOptions, count, makeTempDir, parseOptions, removeDir } from "./common.ts";
import { generateCWorkspace } from "./gen-c-fixture.ts";
import {
  bridgePosition,
  type Case,
  type CaseResult,
  directOpen,
  lspPosition,
  type Pair,
  runCases,
  type Spot,
  startPair,
} from "./pair.ts";
import { statusMb } from "./procfs.ts";
import { type Metric, metric, pairedDifferences } from "./stats.ts";

const GROUP = "overhead";
const SETTLE_TIMEOUT_MS = 60_000;
const LARGE_FILES = 1000;

const length = (x: unknown) => (Array.isArray(x) ? x.length : x === null ? 0 : 1);
const totalOf = (s: Record<string, unknown>) => (typeof s.total === "number" ? s.total : 1);

/** hover / definition / references at a spot. */
function positionCase(pair: Pair, tool: string, method: string, spot: Spot, extra = {}): Case {
  const args = bridgePosition(pair.bridgeRoot, spot);
  const position = lspPosition(pair.directRoot, spot);
  return {
    name: tool,
    bridge: async () => totalOf((await pair.bridge.callOk(tool, args)).structured),
    direct: async () => {
      const uri = await directOpen(pair, spot.file);
      return length(
        await pair.direct.request(method, { textDocument: { uri }, position, ...extra }),
      );
    },
  };
}

function documentSymbolsCase(pair: Pair, file: string): Case {
  return {
    name: "document_symbols",
    bridge: async () =>
      totalOf((await pair.bridge.callOk("document_symbols", { file })).structured),
    direct: async () => {
      const uri = await directOpen(pair, file);
      return length(
        await pair.direct.request("textDocument/documentSymbol", { textDocument: { uri } }),
      );
    },
  };
}

function workspaceSymbolsCase(pair: Pair, query: string): Case {
  return {
    name: `workspace_symbols "${query}"`,
    bridge: async () =>
      totalOf((await pair.bridge.callOk("workspace_symbols", { query })).structured),
    direct: async () => length(await pair.direct.request("workspace/symbol", { query })),
  };
}

/** The direct client's settle rule for a file, as the server config declares it (SPEC §6). */
async function directDiagnostics(pair: Pair, file: string, changed: boolean): Promise<number> {
  const abs = join(pair.directRoot, file);
  const uri = await directOpen(pair, file);
  const before = pair.direct.publishes(uri);
  const version = changed ? await pair.direct.changeFile(abs) : 1;
  const rule = pair.server.diagnostics_settle;
  const settle =
    rule === "version"
      ? { version: changed ? version : 0 }
      : { publishesBefore: changed ? before : 0 };
  return (await pair.direct.diagnosticsFor(uri, settle, SETTLE_TIMEOUT_MS)).length;
}

function diagnosticsCases(pair: Pair, file: string): Case[] {
  const original = readFileSync(join(pair.bridgeRoot, file), "utf8");
  const bridgeCall = async () =>
    totalOf((await pair.bridge.callOk("diagnostics", { file })).structured);
  return [
    {
      name: "diagnostics (file unchanged)",
      bridge: bridgeCall,
      direct: () => directDiagnostics(pair, file, false),
    },
    {
      name: "diagnostics (after an edit)",
      // alternate two contents, so every iteration is a change for both clients
      prepare: (i) => {
        const text = i % 2 === 0 ? `${original}// edited\n` : original;
        writeFileSync(join(pair.bridgeRoot, file), text);
        writeFileSync(join(pair.directRoot, file), text);
      },
      bridge: bridgeCall,
      direct: () => directDiagnostics(pair, file, true),
    },
  ];
}

function metricsOf(label: string, results: CaseResult[]): Metric[] {
  const metrics: Metric[] = [];
  for (const r of results) {
    const mismatch =
      r.counts[0] !== r.counts[1]
        ? `item counts differ (bridge ${r.counts[0]}, direct ${r.counts[1]}): normalization merges or drops items`
        : undefined;
    metrics.push(
      metric(GROUP, `${label} ${r.name}: bridge`, "ms", r.bridge),
      metric(GROUP, `${label} ${r.name}: direct`, "ms", r.direct),
      metric(
        GROUP,
        `${label} ${r.name}: overhead (bridge − direct)`,
        "ms",
        pairedDifferences(r.bridge, r.direct),
        [],
        mismatch,
      ),
    );
  }
  return metrics;
}

interface Setup {
  label: string;
  server: ServerConfig;
  /** fills two fresh directories with the same workspace */
  materialize: (bridgeRoot: string, directRoot: string) => void;
  requiredArgs: (root: string) => string[];
  cases: (pair: Pair) => Case[];
}

async function measure(setup: Setup, opts: BenchOptions): Promise<Metric[]> {
  const dir = makeTempDir(`overhead-${setup.label.replace(/\W+/g, "-")}`);
  let pair: Pair | undefined;
  try {
    const bridgeRoot = join(dir, "bridge");
    const directRoot = join(dir, "direct");
    setup.materialize(bridgeRoot, directRoot);
    pair = await startPair(setup.server, bridgeRoot, directRoot, dir, setup.requiredArgs);
    const results = await runCases(setup.cases(pair), count(opts, 30, 8), count(opts, 5, 3));
    const metrics = metricsOf(setup.label, results);
    const rss = statusMb(pair.bridge.pid, "VmRSS");
    if (rss !== null) {
      metrics.push(
        metric(GROUP, `${setup.label}: bridge VmRSS after the run (1 session)`, "MB", [rss]),
      );
    }
    return metrics;
  } finally {
    await pair?.close();
    removeDir(dir);
  }
}

const clangdArgs = (root: string) => [`--compile-commands-dir=${root}`];

function cSmall(server: ServerConfig): Setup {
  return {
    label: "clangd c",
    server,
    materialize: (a, b) => {
      materializeCFixture(a);
      materializeCFixture(b);
    },
    requiredArgs: clangdArgs,
    cases: (pair) => [
      positionCase(pair, "hover", "textDocument/hover", {
        file: "util.c",
        line: 6,
        symbol: "absolute",
      }),
      positionCase(pair, "definition", "textDocument/definition", {
        file: "main.c",
        line: 4,
        symbol: "point",
      }),
      positionCase(
        pair,
        "references",
        "textDocument/references",
        { file: "util.c", line: 5, symbol: "manhattan" },
        { context: { includeDeclaration: true } },
      ),
      documentSymbolsCase(pair, "util.c"),
      workspaceSymbolsCase(pair, "man"),
      ...diagnosticsCases(pair, "util.c"),
    ],
  };
}

function tsSmall(server: ServerConfig): Setup {
  return {
    label: "tls ts",
    server,
    materialize: (a, b) => {
      copyFixture("ts", a);
      copyFixture("ts", b);
    },
    requiredArgs: () => [],
    cases: (pair) => [
      positionCase(pair, "hover", "textDocument/hover", {
        file: "src/main.ts",
        line: 1,
        symbol: "totalArea",
      }),
      positionCase(pair, "definition", "textDocument/definition", {
        file: "src/main.ts",
        line: 3,
        symbol: "Square",
      }),
      positionCase(
        pair,
        "references",
        "textDocument/references",
        { file: "src/shape.ts", line: 14, symbol: "totalArea" },
        { context: { includeDeclaration: true } },
      ),
      documentSymbolsCase(pair, "src/shape.ts"),
      workspaceSymbolsCase(pair, "Square"),
      ...diagnosticsCases(pair, "src/errors.ts"),
    ],
  };
}

function cLarge(server: ServerConfig): Setup {
  const unit = `src/mod5/fn_0345.c`;
  return {
    label: `clangd ${LARGE_FILES} files`,
    server,
    materialize: (a, b) => {
      generateCWorkspace(a, LARGE_FILES);
      generateCWorkspace(b, LARGE_FILES);
    },
    requiredArgs: clangdArgs,
    cases: (pair) => [
      positionCase(pair, "definition", "textDocument/definition", {
        file: unit,
        line: 6,
        symbol: "fn_0346",
      }),
      positionCase(
        pair,
        "references",
        "textDocument/references",
        { file: "src/hub.c", line: 3, symbol: "hub" },
        { context: { includeDeclaration: true } },
      ),
      workspaceSymbolsCase(pair, "fn_01"),
    ],
  };
}

function notMeasured(label: string, why: string): Metric {
  return metric(GROUP, `${label}: all tools`, "ms", null, [], `not measured: ${why}`);
}

export async function runOverhead(opts: BenchOptions): Promise<Metric[]> {
  const metrics: Metric[] = [];
  const clangd = await findClangd();
  const tls = await findTypescriptLanguageServer();
  if (clangd) {
    metrics.push(...(await measure(cSmall(clangd.config), opts)));
  } else {
    metrics.push(notMeasured("clangd c", "clangd not found"));
  }
  if (tls) {
    metrics.push(...(await measure(tsSmall(tls.config), opts)));
  } else {
    metrics.push(notMeasured("tls ts", "typescript-language-server not found (.ci/setup-servers)"));
  }
  if (clangd) {
    metrics.push(...(await measure(cLarge(clangd.config), opts)));
  } else {
    metrics.push(notMeasured(`clangd ${LARGE_FILES} files`, "clangd not found"));
  }
  return metrics;
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runOverhead(parseOptions(process.argv)));
}
