/**
 * Warm attach (SPEC §2.2): a client's first correct `definition`, cold (no bridge runs:
 * the client starts the shared bridge, which starts the server) against warm (a second
 * client attaching to a bridge whose server is ready), and a dedicated `--isolated`
 * bridge's cold start beside them. Two setups: typescript-language-server over a
 * generated 300-file project, and rust-analyzer on the regex crate (bench/real-code.ts;
 * its `definition` lands in regex-automata, so the dependency graph is loaded), with the
 * initialization options discovery gives it (cache priming on) and the offline
 * environment of the test suites. Times from spawning the client: to its `initialize`
 * answer, and to the `definition` answer that names the expected file. Each run uses a
 * TMPDIR of its own, so no bridge of another run is found; on rust-analyzer the dedicated
 * and the shared bridge each get a fresh copy of the crate (no `target/` of a run before).
 *
 *   bun bench/shared-attach.ts [--quick] [tls|ra]
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../src/config/types.ts";
import { writeConfig } from "../test/support/bridge.ts";
import { realConfig } from "../test/support/real-bridge.ts";
import {
  findRustAnalyzer,
  findTypescriptLanguageServer,
  type RealServer,
} from "../test/support/real-servers.ts";
import { type LineClient, SharedWorld } from "../test/support/shared-bridge.ts";
import { binary, count, makeTempDir, parseOptions, removeDir } from "./common.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { regexCrate } from "./real-code.ts";
import { summarize } from "./stats.ts";

const ANSWER_TIMEOUT_MS = 600_000;

interface Setup {
  label: string;
  /** a configuration on a workspace for one bridge; `dirs` are removed after the run */
  workspace(): { config: string; dirs: string[] };
  args: Record<string, unknown>;
  /** text the correct answer contains */
  expect: string;
  /** what the setup made once, removed at the end */
  made: string[];
}

function configIn(root: string, server: ServerConfig): string {
  return writeConfig(realConfig(root, server), makeTempDir("shared-attach-config"));
}

/** The generated 300-file project, one root for every run (tls writes nothing into it). */
function tlsSetup(tls: RealServer): Setup {
  const root = makeTempDir("shared-attach");
  const ws = generateTsWorkspace(root, 300);
  const file = ws.modulePath(0);
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes("return fn_0001(")) + 1;
  const config = configIn(root, tls.config);
  return {
    label: "typescript-language-server, 300 generated files",
    workspace: () => ({ config, dirs: [] }),
    args: { file, line, symbol: "fn_0001" },
    expect: ws.modulePath(1),
    made: [root, join(config, "..")],
  };
}

/** regex 1.12.3: `Regex::is_match_at` calls regex-automata's `meta::Regex::search_half`. */
function raSetup(ra: RealServer): Setup {
  const crate = regexCrate(ra.config.env.CARGO ?? "cargo");
  // what discovery configures (cache priming on), with the suites' offline environment
  const server = { ...ra.config, initialization_options: ra.discovered.initialization_options };
  return {
    label: "rust-analyzer, the regex crate",
    workspace: () => {
      const root = makeTempDir("shared-attach-regex");
      cpSync(crate, root, { recursive: true });
      const config = configIn(root, server);
      return { config, dirs: [root, join(config, "..")] };
    },
    args: { file: "src/regex/string.rs", line: 1074, symbol: "search_half" },
    expect: "/src/meta/regex.rs",
    made: [],
  };
}

interface Times {
  initialize: number;
  definition: number;
}

/** Spawn a client, initialize, ask the definition; the times from the spawn. */
async function firstDefinition(
  world: SharedWorld,
  setup: Setup,
  config: string,
  extra: string[],
): Promise<Times> {
  const start = performance.now();
  const c: LineClient = world.client(["--config", config, ...extra]);
  await c.initialize("bench");
  const initialize = performance.now() - start;
  c.call(2, "definition", setup.args);
  const answer = await c.answer(2, ANSWER_TIMEOUT_MS);
  const definition = performance.now() - start;
  if (!answer.includes(setup.expect))
    throw new Error(`not the definition: ${answer.slice(0, 300)}`);
  c.endInput();
  return { initialize, definition };
}

async function measure(setup: Setup, runs: number): Promise<void> {
  const samples: Record<string, Times[]> = { warm: [], cold: [], isolated: [] };
  const load: number[] = [];
  for (let i = 0; i < runs; i++) {
    const world = new SharedWorld();
    const dedicated = setup.workspace();
    const shared = setup.workspace();
    try {
      load.push(loadAverage());
      samples.isolated?.push(await firstDefinition(world, setup, dedicated.config, ["--isolated"]));
      samples.cold?.push(await firstDefinition(world, setup, shared.config, []));
      samples.warm?.push(await firstDefinition(world, setup, shared.config, []));
    } finally {
      await world.cleanup();
      for (const d of [...dedicated.dirs, ...shared.dirs]) removeDir(d);
    }
  }
  const fmt = (xs: number[]) => {
    const s = summarize(xs);
    return `p50 ${s.p50.toFixed(0)} ms (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)}, n ${s.n})`;
  };
  console.log(`${setup.label} (load average ${load.map((l) => l.toFixed(1)).join(", ")}):`);
  for (const [name, times] of Object.entries(samples)) {
    console.log(`  ${name}: spawn → initialize ${fmt(times.map((t) => t.initialize))}`);
    console.log(`  ${name}: spawn → first definition ${fmt(times.map((t) => t.definition))}`);
    console.log(
      `  ${name}: initialize → first definition ${fmt(times.map((t) => t.definition - t.initialize))}`,
    );
  }
}

/** The one-minute load average, as the figures are reported with it. */
function loadAverage(): number {
  return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
}

const argv = process.argv.slice(2);
const opts = parseOptions(argv);
const runs = count(opts, 5, 2);
const only = argv.find((a) => !a.startsWith("--"));
binary();
const makers: [string, () => Promise<RealServer | null>, (s: RealServer) => Setup][] = [
  ["tls", findTypescriptLanguageServer, tlsSetup],
  ["ra", findRustAnalyzer, raSetup],
];
for (const [key, find, make] of makers) {
  if (only !== undefined && only !== key) continue;
  const server = await find();
  if (server === null) {
    console.log(`${key}: not measured (run .ci/setup-servers)`);
    continue;
  }
  const setup = make(server);
  try {
    await measure(setup, runs);
  } finally {
    for (const d of setup.made) removeDir(d);
  }
}
