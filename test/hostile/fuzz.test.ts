/**
 * Seeded fuzzing of the compiled bridge (SPEC §8): random and mutated MCP tool arguments
 * on one side, random LSP answers from the fake server (fuzz scenario) on the other, and
 * every WIDE_EVERY calls a line of wide, many-keyed or deep JSON (answered -32600 exactly
 * when it passes the client bounds, SPEC §4.8). Fixed seed, so a failure reproduces.
 * Asserted for every call: answered within a bound, with a valid result or a typed error
 * (never `Internal`); throughout: stdout carries only JSON-RPC, `ping` is answered, the
 * bridge stays up under 300 MB, and nothing outside the root changes.
 * The arguments come from the seed; each server answer from the seed, the request and
 * how often it was asked (test/fake-server/fuzz.ts), so two runs see the same calls. The
 * workspace holds a file with every line terminator, and the server counts lines as
 * neither it nor LSP do alike (SPEC §5: tsserver's read, LF's answered).
 */
import { afterAll, expect, test } from "bun:test";
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { ERROR_CODES } from "../../src/errors.ts";
import { exceeds } from "../../src/json-bounds.ts";
import { CLIENT_JSON_BOUNDS } from "../../src/mcp/transport/stdio.ts";
import { pathToUri } from "../../src/workspace/uri.ts";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { ALL_TERMINATORS } from "../support/line-oracle.ts";
import { Prng } from "../support/prng.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { peakRssMb, RSS_BOUND_MB } from "./bounds-harness.ts";
import {
  type FuzzContext,
  fuzzArguments,
  pickTool,
  type ToolSchema,
  wideCall,
} from "./fuzz-args.ts";

const SEED = 0x7e0d0_11e;
/** FUZZ_TRACE=<file>: one line per call (arguments and outcome), to compare two runs */
const TRACE = process.env.FUZZ_TRACE;
const ITERATIONS = 1000;
const REQUEST_TIMEOUT_MS = 500;
/**
 * A call waits for a few server requests at most (each bounded by REQUEST_TIMEOUT_MS); the
 * rest of the bound is headroom for a loaded CI machine. A hang still fails here.
 */
const CALL_BOUND_MS = 10_000;
/** Every this many calls, one line of wide or deep JSON besides. */
const WIDE_EVERY = 80;

afterAll(async () => {
  await closeRawBridges();
  removeTempDirs();
});

function snapshot(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .sort()
    .map((name) => {
      const st = statSync(join(dir, name));
      return `${name} ${st.ino} ${st.mtimeMs} ${st.isFile() ? readFileSync(join(dir, name), "utf8") : ""}`;
    })
    .join("\n");
}

test(`seeded fuzz: ${ITERATIONS} calls, seed ${SEED}`, async () => {
  const base = realpathSync(tempDir("theodolite-hostile-fuzz-"));
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  mkdirSync(join(ws, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "a.fake"), "fn_a é😀\nline two\r\nthree\n");
  writeFileSync(join(ws, "b.fake"), "fn_b\n");
  writeFileSync(join(ws, "sub", "c.fake"), "fn_c\tx\n");
  writeFileSync(join(ws, "big.fake"), "x".repeat(5000));
  writeFileSync(join(ws, "latin1.fake"), new Uint8Array([0x66, 0xe9, 0x0a]));
  // every line terminator, which the server (below) counts otherwise than LSP (SPEC §5)
  writeFileSync(join(ws, "lines.fake"), `fn_l${ALL_TERMINATORS.join("x😀")}end\r`);
  writeFileSync(join(outside, "secret.fake"), "fn_secret\n");
  expect(Bun.spawnSync(["mkfifo", join(ws, "pipe.fake")]).success).toBe(true);
  const inside = [
    "a.fake",
    "b.fake",
    "sub/c.fake",
    "lines.fake",
    "big.fake",
    "latin1.fake",
    "pipe.fake",
    "sub",
  ];
  const uris = [
    ...inside.map((f) => pathToUri(join(ws, f))),
    pathToUri(join(outside, "secret.fake")),
    "file:///dev/zero",
    "untitled:Untitled-1",
    "file://host/share/x.fake",
  ];
  const scenario = {
    capabilities: {
      textDocumentSync: 1,
      definitionProvider: true,
      declarationProvider: true,
      typeDefinitionProvider: true,
      implementationProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      renameProvider: { prepareProvider: true },
      codeActionProvider: { resolveProvider: true },
      callHierarchyProvider: true,
      typeHierarchyProvider: true,
      completionProvider: { resolveProvider: true },
      signatureHelpProvider: {},
      diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
    },
    fuzz: { seed: SEED, uris },
  };
  const config = writeConfig({
    bridge: {
      max_file_bytes: 4096,
      request_timeout_ms: REQUEST_TIMEOUT_MS,
      mutation: "gated",
      mutation_allowlist: ["hostile"],
    },
    workspace: [{ name: "ws", root: ws, servers: ["fake"] }],
    server: [
      fakeServer("fake", scenario, {
        // it reads in tsserver's lines and answers in LF's
        line_terminators: ["cr", "lf", "crlf", "u2028", "u2029"],
        answer_line_terminators: ["lf"],
      }),
    ],
  });
  const outsideBefore = snapshot(outside);
  const bridge = await RawBridge.start(config);
  const listed = await bridge.request("tools/list", {}, 5_000);
  const tools = (listed.result?.tools ?? []) as ToolSchema[];
  expect(tools.map((t) => t.name)).toContain("rename_apply");

  const r = new Prng(SEED);
  const ctx: FuzzContext = {
    files: [
      ...inside,
      "../outside/secret.fake",
      join(outside, "secret.fake"),
      "/dev/zero",
      "",
      "nope.fake",
      "a.fake\u0000x",
    ],
    handles: [],
  };
  const outcomes: Record<string, number> = {};
  const wideOutcomes: Record<string, number> = {};
  let restarts = 0;
  const codes = new Set<string>(ERROR_CODES);
  for (let i = 0; i < ITERATIONS; i++) {
    const tool = pickTool(r, tools);
    const args = fuzzArguments(r, tool, ctx);
    const what = `#${i} ${tool.name} ${JSON.stringify(args).slice(0, 200)}`;
    const answer = await bridge.call(tool.name, args, CALL_BOUND_MS);
    const { response } = answer;
    if (TRACE) {
      const note = answer.isError ? ` ${String(answer.structured.message)}` : "";
      appendFileSync(
        TRACE,
        `${what} => ${answer.code ?? "ok"}${note} (${Math.round(answer.ms)} ms)\n`,
      );
    }
    let outcome: string;
    if (response.error) {
      outcome = `rpc ${response.error.code}`;
    } else if (answer.isError) {
      outcome = String(answer.code);
      if (!codes.has(outcome) || outcome === "Internal") {
        throw new Error(`${what}: untyped error ${JSON.stringify(answer.structured)}`);
      }
    } else {
      outcome = "ok";
      const content = response.result?.content as { type: string; text: string }[] | undefined;
      expect(JSON.parse(content?.[0]?.text ?? "null"), what).toEqual(answer.structured);
      for (const a of (answer.structured.actions ?? []) as { handle?: string }[]) {
        if (a.handle !== undefined) ctx.handles.push(a.handle);
      }
    }
    outcomes[`${tool.name} ${outcome}`] = (outcomes[`${tool.name} ${outcome}`] ?? 0) + 1;
    if (i % 25 === 0) await bridge.ping(CALL_BOUND_MS);
    if (i % WIDE_EVERY === 0) {
      const wide = wideCall(r, 1_000_000 + i, r.pick(ctx.files.slice(0, 3)));
      await bridge.writeRaw(`${wide.line}\n`);
      const answer = await bridge.answer(1_000_000 + i, CALL_BOUND_MS);
      const refused = exceeds(Buffer.from(wide.line), CLIENT_JSON_BOUNDS) !== undefined;
      const code = (answer.error as { code?: number } | undefined)?.code;
      expect(code, `#${i} ${wide.what}`).toBe(refused ? -32600 : undefined);
      const outcome = `wide ${refused ? "refused" : "answered"}`;
      wideOutcomes[outcome] = (wideOutcomes[outcome] ?? 0) + 1;
    }
    // a start that failed (a server too slow for the short request timeout on a loaded
    // machine) leaves the session dead: restart it, as a client would, outside the seed
    if (outcome === "SessionDead" || outcome === "ServerInitFailed") {
      restarts++;
      await bridge.call("session_restart", {}, CALL_BOUND_MS);
    }
  }
  console.log(
    `[hostile] fuzz seed ${SEED}: ${ITERATIONS} calls, max ${Math.round(bridge.maxMs)} ms`,
  );
  const byOutcome: Record<string, number> = {};
  for (const [k, n] of Object.entries(outcomes)) {
    const outcome = k.split(" ").slice(1).join(" ");
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + n;
  }
  console.log(
    `[hostile] fuzz outcomes: ${JSON.stringify(byOutcome)}, restarts after a dead start: ${restarts}; wide JSON lines ${JSON.stringify(wideOutcomes)}; bridge peak RSS ${peakRssMb(bridge.pid).toFixed(0)} MB`,
  );
  expect(peakRssMb(bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  expect(Object.keys(wideOutcomes).sort()).toEqual(["wide answered", "wide refused"]);
  // the fuzz must reach the server: many calls answered from its random results
  expect(byOutcome.ok ?? 0).toBeGreaterThan(ITERATIONS / 6);
  expect(bridge.alive()).toBe(true);
  expect(bridge.notJsonRpc).toEqual([]);
  expect(snapshot(outside)).toBe(outsideBefore);
  const leftovers = readdirSync(ws, { recursive: true })
    .map(String)
    .filter((n) => n.includes(".theodolite-"));
  expect(leftovers).toEqual([]);
  // JSON-RPC errors are for malformed requests only; every tool call here is well-formed
  expect(Object.keys(outcomes).filter((k) => k.includes(" rpc "))).toEqual([]);
}, 120_000);
