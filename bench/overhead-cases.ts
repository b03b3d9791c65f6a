/**
 * The measured operations of the overhead benchmark, each in its three forms: through
 * theodolite (raw MCP client), through the direct LSP client, and — for the tools it has —
 * through cclsp (bench/peers.ts). Every form returns the item count it got, so the run can
 * check that all three answered the same question.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../src/config/types.ts";
import {
  bridgePosition,
  type Case,
  directOpen,
  lspPosition,
  type Pair,
  type Spot,
} from "./pair.ts";
import type { Peer } from "./peers.ts";

const SETTLE_TIMEOUT_MS = 60_000;

/** One workspace measured: how to lay it out (twice, for both clients) and what to ask. */
export interface Setup {
  label: string;
  server: ServerConfig;
  /** fills fresh directories with the same workspace */
  materialize: (root: string) => void;
  requiredArgs: (root: string) => string[];
  /** the file extensions cclsp routes to this server; none: no peer on this setup */
  peerExtensions?: string[];
  cases: (pair: Pair, peer?: Peer) => Case[];
}

const length = (x: unknown) => (Array.isArray(x) ? x.length : x === null ? 0 : 1);
const totalOf = (s: Record<string, unknown>) => (typeof s.total === "number" ? s.total : 1);

/** cclsp's arguments for a spot: 1-based line and character (it converts nothing). */
function peerPosition(peer: Peer, spot: Spot): Record<string, unknown> {
  const { line, character } = lspPosition(peer.root, spot);
  return { file_path: join(peer.root, spot.file), line: line + 1, character: character + 1 };
}

/** cclsp's by-name arguments: the file and the symbol declared at the spot. */
function peerByName(peer: Peer, spot: Spot): Record<string, unknown> {
  return { file_path: join(peer.root, spot.file), symbol_name: spot.symbol };
}

/** hover / definition / references at a spot; `peerTool` when cclsp has the tool. */
export function positionCase(
  pair: Pair,
  tool: "hover" | "definition" | "references",
  spot: Spot,
  peer?: Peer,
): Case {
  const method = `textDocument/${tool}`;
  const extra = tool === "references" ? { context: { includeDeclaration: true } } : {};
  const args = bridgePosition(pair.bridgeRoot, spot);
  const position = lspPosition(pair.directRoot, spot);
  const c: Case = {
    name: tool,
    bridge: async () => totalOf((await pair.bridge.callOk(tool, args)).structured),
    direct: async () => {
      const uri = await directOpen(pair, spot.file);
      return length(
        await pair.direct.request(method, { textDocument: { uri }, position, ...extra }),
      );
    },
  };
  if (peer !== undefined) {
    const [peerTool, peerArgs] =
      tool === "hover"
        ? ["get_hover", peerPosition(peer, spot)]
        : tool === "definition"
          ? ["find_definition", peerByName(peer, spot)]
          : ["find_references", { ...peerByName(peer, spot), include_declaration: true }];
    c.peer = () => peer.call(peerTool as string, peerArgs as Record<string, unknown>);
  }
  return c;
}

export function documentSymbolsCase(pair: Pair, file: string): Case {
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

export function workspaceSymbolsCase(pair: Pair, query: string, peer?: Peer): Case {
  const c: Case = {
    name: `workspace_symbols "${query}"`,
    bridge: async () =>
      totalOf((await pair.bridge.callOk("workspace_symbols", { query })).structured),
    direct: async () => length(await pair.direct.request("workspace/symbol", { query })),
  };
  if (peer !== undefined) c.peer = () => peer.call("find_workspace_symbols", { query });
  return c;
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

export function diagnosticsCases(pair: Pair, file: string): Case[] {
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
      // each round waits for the server's diagnostics run (tls ~0.4 s): a few warm-ups do
      warmup: 5,
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
