/**
 * Shared against dedicated on the real servers (SPEC §2.2 "The relay adds nothing"): per
 * server, a dedicated bridge (`--isolated`) and a shared one on the same fixture copy and
 * configuration get the same calls — every read tool `tools/list` lists, positions from
 * test/fixtures/README.md — and their raw JSON-RPC answer lines must be the same bytes:
 * `initialize`, `tools/list` and each tool call, an error envelope included.
 * `session_status` differs by design (pids, uptimes, start times); the rest of it must
 * be equal (`comparableStatus`). Both bridges get each call at once; each row runs in a
 * world of its own, ended with the row.
 */
import { afterAll, expect, test } from "bun:test";
import type { ServerConfig } from "../../src/config/types.ts";
import { writeConfig } from "../support/bridge.ts";
import { findBaconLs, findGopls } from "../support/built-servers.ts";
import { realConfig, requiredUnderCI } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";
import { type LineClient, SharedWorld } from "../support/shared-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

type Call = [tool: string, args: Record<string, unknown>];

interface Row {
  name: string;
  /** the servers, in the workspace's order (the first answers semantics) */
  servers: () => ServerConfig[] | null;
  fixture: () => string;
  calls: Call[];
}

const found: Record<string, RealServer | null> = {
  "typescript-language-server": await findTypescriptLanguageServer(),
  pyright: await findPyright(),
  gopls: await findGopls(),
  "rust-analyzer": await findRustAnalyzer(),
  clangd: await findClangd(),
  "bacon-ls": await findBaconLs(),
};
for (const [name, server] of Object.entries(found)) requiredUnderCI(name, server);

const one = (name: string) => () => {
  const s = found[name];
  return s ? [s.config] : null;
};

/** A position by symbol: file, line, the symbol's first occurrence there. */
const at = (file: string, line: number, symbol: string) => ({ file, line, symbol });

const ROWS: Row[] = [
  {
    name: "typescript-language-server",
    servers: one("typescript-language-server"),
    fixture: () => copyFixture("ts", tempDir()),
    calls: [
      ["diagnostics", { file: "src/errors.ts" }],
      ["diagnostics", { files: ["src/errors.ts", "src/main.ts"] }],
      ["hover", at("src/main.ts", 4, "totalArea")],
      ["definition", at("src/main.ts", 3, "Square")],
      ["declaration", at("src/main.ts", 4, "totalArea")],
      ["type_definition", at("src/main.ts", 3, "squares")],
      ["implementation", at("src/shape.ts", 2, "Shape")],
      ["references", at("src/main.ts", 4, "totalArea")],
      ["call_hierarchy", { ...at("src/main.ts", 4, "totalArea"), direction: "incoming" }],
      ["type_hierarchy", { ...at("src/shape.ts", 6, "Square"), direction: "supertypes" }],
      ["document_symbols", { file: "src/shape.ts" }],
      ["symbol_source", { file: "src/shape.ts", symbol: "Square.area" }],
      ["workspace_symbols", { query: "Square" }],
      ["code_actions", { file: "src/errors.ts", line: 4, column: 57 }],
      ["rename_preview", { ...at("src/shape.ts", 14, "totalArea"), new_name: "sumAreas" }],
      ["completion", { ...at("src/shape.ts", 15, "area"), limit: 5 }],
      ["signature_help", at("src/main.ts", 4, "squares")],
      ["inlay_hints", { file: "src/shape.ts" }],
      ["formatting", { file: "src/shape.ts" }],
    ],
  },
  {
    name: "pyright",
    servers: one("pyright"),
    fixture: () => copyFixture("python", tempDir()),
    calls: [
      ["diagnostics", { file: "errors.py" }],
      ["diagnostics", { files: ["errors.py", "app.py"] }],
      ["hover", at("app.py", 8, "make_circle")],
      ["definition", at("app.py", 9, "total_area")],
      ["declaration", at("app.py", 8, "make_circle")],
      ["type_definition", at("app.py", 5, "c")],
      ["implementation", at("geometry.py", 10, "area")],
      ["references", at("app.py", 8, "make_circle")],
      ["call_hierarchy", { ...at("app.py", 9, "total_area"), direction: "outgoing" }],
      ["type_hierarchy", { ...at("geometry.py", 4, "Circle"), direction: "subtypes" }],
      ["document_symbols", { file: "geometry.py" }],
      ["symbol_source", { file: "geometry.py", symbol: "Circle.area" }],
      ["workspace_symbols", { query: "Circle" }],
      ["code_actions", { file: "errors.py", line: 4, column: 40 }],
      ["rename_preview", { ...at("app.py", 8, "make_circle"), new_name: "new_circle" }],
      ["completion", { ...at("app.py", 5, "area"), limit: 5 }],
      ["signature_help", at("app.py", 9, "shapes")],
      ["inlay_hints", { file: "app.py" }],
      ["formatting", { file: "app.py" }],
    ],
  },
  {
    name: "gopls",
    servers: one("gopls"),
    fixture: () => copyFixture("go", tempDir()),
    calls: [
      ["diagnostics", { file: "broken/broken.go" }],
      ["diagnostics", { files: ["broken/broken.go", "main.go"] }],
      ["hover", at("main.go", 11, "TotalArea")],
      ["definition", at("main.go", 11, "TotalArea")],
      ["declaration", at("main.go", 11, "TotalArea")],
      ["type_definition", at("main.go", 11, "rects")],
      ["implementation", at("shapes/shapes.go", 5, "Shape")],
      ["references", at("shapes/shapes.go", 10, "Rect")],
      ["call_hierarchy", { ...at("main.go", 11, "TotalArea"), direction: "incoming" }],
      ["type_hierarchy", { ...at("shapes/shapes.go", 10, "Rect"), direction: "supertypes" }],
      ["document_symbols", { file: "shapes/shapes.go" }],
      ["symbol_source", { file: "shapes/shapes.go", symbol: "Rect.Scale" }],
      ["workspace_symbols", { query: "Rect" }],
      ["code_actions", at("broken/broken.go", 7, "missing")],
      ["rename_preview", { ...at("main.go", 11, "TotalArea"), new_name: "SumAreas" }],
      ["completion", { ...at("shapes/shapes.go", 24, "Area"), limit: 5 }],
      ["signature_help", at("main.go", 11, "rects")],
      ["inlay_hints", { file: "main.go" }],
      ["formatting", { file: "main.go" }],
    ],
  },
  {
    name: "rust-analyzer",
    servers: one("rust-analyzer"),
    fixture: () => copyFixture("rust", tempDir()),
    calls: [
      ["diagnostics", { file: "src/main.rs" }],
      ["diagnostics", { files: ["src/main.rs", "src/report.rs"] }],
      ["hover", at("src/main.rs", 6, "total_area")],
      ["definition", at("src/report.rs", 5, "area")],
      ["declaration", at("src/main.rs", 6, "total_area")],
      ["type_definition", at("src/report.rs", 5, "r")],
      ["implementation", at("src/shapes.rs", 2, "Area")],
      ["references", at("src/shapes.rs", 7, "Rect")],
      ["call_hierarchy", { ...at("src/main.rs", 6, "total_area"), direction: "incoming" }],
      ["type_hierarchy", { ...at("src/shapes.rs", 7, "Rect"), direction: "supertypes" }],
      ["document_symbols", { file: "src/shapes.rs" }],
      ["symbol_source", { file: "src/shapes.rs", symbol: "Rect.area" }],
      ["workspace_symbols", { query: "Rect" }],
      ["code_actions", at("src/main.rs", 6, "total_area")],
      ["rename_preview", { ...at("src/main.rs", 6, "total_area"), new_name: "sum_areas" }],
      ["completion", { ...at("src/report.rs", 5, "area"), limit: 5 }],
      ["signature_help", at("src/main.rs", 6, "rects")],
      ["inlay_hints", { file: "src/main.rs" }],
      ["formatting", { file: "src/main.rs" }],
    ],
  },
  {
    name: "clangd",
    servers: one("clangd"),
    fixture: () => materializeCFixture(tempDir()),
    calls: [
      ["diagnostics", { file: "main.c" }],
      ["diagnostics", { files: ["main.c", "util.c"] }],
      ["hover", at("main.c", 6, "manhattan")],
      ["definition", at("main.c", 6, "manhattan")],
      ["declaration", at("main.c", 6, "manhattan")],
      ["type_definition", at("main.c", 4, "origin")],
      ["implementation", at("geometry.h", 10, "manhattan")],
      ["references", at("main.c", 4, "point")],
      ["call_hierarchy", { ...at("main.c", 6, "manhattan"), direction: "incoming" }],
      ["type_hierarchy", { ...at("geometry.h", 5, "point"), direction: "supertypes" }],
      ["document_symbols", { file: "geometry.h" }],
      ["symbol_source", { file: "util.c", symbol: "manhattan" }],
      ["workspace_symbols", { query: "point" }],
      ["code_actions", at("main.c", 6, "manhattan")],
      ["rename_preview", { ...at("main.c", 6, "manhattan"), new_name: "taxicab" }],
      ["completion", { ...at("util.c", 6, "x"), limit: 5 }],
      ["signature_help", at("main.c", 6, "origin")],
      ["inlay_hints", { file: "main.c" }],
      ["formatting", { file: "util.c" }],
      // a restart costs a server start, and its answer names no server output: once
      ["session_restart", {}],
    ],
  },
  {
    // bridge.toml.example's "app": rust-analyzer answers semantics, bacon-ls diagnostics
    name: "rust-analyzer + bacon-ls",
    servers: () => {
      const ra = found["rust-analyzer"];
      const bacon = found["bacon-ls"];
      return ra && bacon ? [{ ...ra.config, roles: ["semantics"] }, bacon.config] : null;
    },
    fixture: () => copyFixture("rust-errors", tempDir()),
    calls: [
      ["diagnostics", { file: "src/lib.rs" }],
      ["diagnostics", { files: ["src/lib.rs", "Cargo.toml"] }],
      ["hover", at("src/lib.rs", 9, "len")],
      ["definition", at("src/lib.rs", 5, "total")],
      ["declaration", at("src/lib.rs", 5, "total")],
      ["type_definition", at("src/lib.rs", 9, "text")],
      ["implementation", at("src/lib.rs", 3, "count")],
      ["references", at("src/lib.rs", 4, "total")],
      ["call_hierarchy", { ...at("src/lib.rs", 3, "count"), direction: "outgoing" }],
      ["type_hierarchy", { ...at("src/lib.rs", 3, "count"), direction: "supertypes" }],
      ["document_symbols", { file: "src/lib.rs" }],
      ["symbol_source", { file: "src/lib.rs", symbol: "label" }],
      ["workspace_symbols", { query: "count" }],
      ["code_actions", { file: "src/lib.rs", line: 4, column: 22 }],
      ["rename_preview", { ...at("src/lib.rs", 4, "total"), new_name: "sum" }],
      ["completion", { ...at("src/lib.rs", 9, "len"), limit: 5 }],
      ["signature_help", { file: "src/lib.rs", line: 9, column: 36 }],
      ["inlay_hints", { file: "src/lib.rs" }],
      ["formatting", { file: "src/lib.rs" }],
    ],
  },
];

/**
 * A `session_status` answer without what differs by design between two bridges — process
 * ids, uptimes and start times (`pid`, `pids`, `uptime_ms`, `ready_ms`; a stderr tail's
 * timestamps and pids) — and what follows the server's own timing: the file watchers it
 * registers (when, and in which order), its progress and busy status, readiness
 * conditions met again or not, calls in flight, and how many diagnostics it has pushed
 * for files nobody asked about. Everything else — versions, configuration, client,
 * states, epochs, encodings, containment, readiness conditions, warm-up, open documents,
 * the watch and coherence counters, restarts, last exit and error — must be equal.
 */
const VARIES = new Set([
  "pid",
  "pids",
  "uptime_ms",
  "ready_ms",
  "stderr_tail",
  "watchers",
  "watchers_total",
  "watchers_outside_root",
  "watchers_outside_root_total",
  "met",
  "server_status",
  "progress",
  "progress_active",
  "inflight",
  "diagnostics",
]);

function comparableStatus(line: string): unknown {
  const answer = JSON.parse(line) as { result: { structuredContent: unknown } };
  return JSON.parse(JSON.stringify(answer.result.structuredContent), (key, value) =>
    VARIES.has(key) ? "(varies)" : value,
  );
}

/** Tools `tools/list` lists that the calls must cover: all but the apply class. */
function readTools(line: string): string[] {
  const listed = JSON.parse(line) as {
    result: { tools: { name: string; annotations?: { destructiveHint?: boolean } }[] };
  };
  return listed.result.tools
    .filter((t) => t.annotations?.destructiveHint !== true)
    .map((t) => t.name)
    .sort();
}

/** The same request to both clients at once; both raw answer lines. */
async function both(
  pair: [LineClient, LineClient],
  id: number,
  method: string,
  params?: Record<string, unknown>,
): Promise<[string, string]> {
  for (const c of pair) c.send({ id, method, ...(params ? { params } : {}) });
  const [a, b] = await Promise.all(pair.map((c) => c.answer(id, 180_000)));
  return [a as string, b as string];
}

const status = (pair: [LineClient, LineClient], id: number, args: Record<string, unknown>) =>
  both(pair, id, "tools/call", { name: "session_status", arguments: args });

afterAll(removeTempDirs);

for (const row of ROWS) {
  const servers = row.servers();
  test.skipIf(servers === null)(
    `${row.name}: shared answers are a dedicated bridge's`,
    async () => {
      if (servers === null) return;
      // one world per row: its daemon and servers end with the row, not with the file
      const world = new SharedWorld();
      try {
        const root = row.fixture();
        const [semantics, ...more] = servers as [ServerConfig, ...ServerConfig[]];
        const config = writeConfig(realConfig(root, semantics, { extraServers: more }));
        const pair: [LineClient, LineClient] = [
          world.client(["--config", config, "--isolated"]),
          world.client(["--config", config]),
        ];
        const init = await Promise.all(pair.map((c) => c.initialize("identical")));
        expect(init[1]).toBe(init[0] as string);
        const [listed, listedShared] = await both(pair, 2, "tools/list");
        expect(listedShared).toBe(listed);
        // session_restart is covered once, by clangd's row
        const covered = new Set(row.calls.map(([tool]) => tool));
        covered.add("session_status").add("session_restart");
        expect([...covered].sort()).toEqual(readTools(listed));
        const started = await status(pair, 3, { start: true });
        expect(comparableStatus(started[1])).toEqual(comparableStatus(started[0]));
        for (const [i, [tool, args]] of row.calls.entries()) {
          const [dedicated, shared] = await both(pair, 10 + i, "tools/call", {
            name: tool,
            arguments: args,
          });
          // the tool named, so a failure says which call differs
          expect({ tool, args, shared }).toEqual({ tool, args, shared: dedicated });
        }
        const ended = await status(pair, 4, {});
        expect(comparableStatus(ended[1])).toEqual(comparableStatus(ended[0]));
      } finally {
        await world.cleanup();
      }
    },
  );
}
