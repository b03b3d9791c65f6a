/**
 * Warm attach (SPEC §2.2): a client's first correct `definition` on
 * typescript-language-server over a generated 300-file project, cold (no bridge runs:
 * the client starts the shared bridge, which starts the server) against warm (a second
 * client attaching to a bridge whose server is ready), and a dedicated `--isolated`
 * bridge's cold start beside them. Times from spawning the client: to its `initialize`
 * answer, and to the `definition` answer that names the next module's file. Each run
 * uses a TMPDIR of its own, so no bridge of another run is found.
 *
 *   bun bench/shared-attach.ts [--quick]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeConfig } from "../test/support/bridge.ts";
import { realConfig } from "../test/support/real-bridge.ts";
import { findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { type LineClient, SharedWorld } from "../test/support/shared-bridge.ts";
import { binary, count, makeTempDir, parseOptions, removeDir } from "./common.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { summarize } from "./stats.ts";

const FILES = 300;
const opts = parseOptions(process.argv.slice(2));
const runs = count(opts, 5, 2);

const tls = await findTypescriptLanguageServer();
if (tls === null) {
  console.log("typescript-language-server: not measured (run .ci/setup-servers)");
  process.exit(0);
}
binary();
const root = makeTempDir("shared-attach");
const ws = generateTsWorkspace(root, FILES);
const file = ws.modulePath(0);
const lines = readFileSync(join(root, file), "utf8").split("\n");
const line = lines.findIndex((l) => l.includes("return fn_0001(")) + 1;
const args = { file, line, symbol: "fn_0001" };
const config = writeConfig(realConfig(root, tls.config), makeTempDir("shared-attach-config"));

interface Times {
  initialize: number;
  definition: number;
}

/** Spawn a client, initialize, ask the definition; the times from the spawn. */
async function firstDefinition(world: SharedWorld, extra: string[]): Promise<Times> {
  const start = performance.now();
  const c: LineClient = world.client(["--config", config, ...extra]);
  await c.initialize("bench");
  const initialize = performance.now() - start;
  c.call(2, "definition", args);
  const answer = await c.answer(2, 180_000);
  const definition = performance.now() - start;
  if (!answer.includes(ws.modulePath(1)))
    throw new Error(`not the definition: ${answer.slice(0, 300)}`);
  c.endInput();
  return { initialize, definition };
}

const samples: Record<string, Times[]> = { cold: [], warm: [], isolated: [] };
try {
  for (let i = 0; i < runs; i++) {
    const world = new SharedWorld();
    try {
      samples.isolated?.push(await firstDefinition(world, ["--isolated"]));
      samples.cold?.push(await firstDefinition(world, []));
      samples.warm?.push(await firstDefinition(world, []));
    } finally {
      await world.cleanup();
    }
  }
} finally {
  removeDir(root);
}
const fmt = (xs: number[]) => {
  const s = summarize(xs);
  return `p50 ${s.p50.toFixed(0)} ms (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)}, n ${s.n})`;
};
for (const [name, times] of Object.entries(samples)) {
  console.log(`${name}: spawn → initialize ${fmt(times.map((t) => t.initialize))}`);
  console.log(`${name}: spawn → first definition ${fmt(times.map((t) => t.definition))}`);
  console.log(
    `${name}: initialize → first definition ${fmt(times.map((t) => t.definition - t.initialize))}`,
  );
}
