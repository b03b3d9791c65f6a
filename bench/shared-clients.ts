/**
 * Eight clients on one shared bridge (SPEC §2.2): typescript-language-server on a
 * generated 100-file project. Per-call p50 of `definition` for one client alone, then
 * for each of eight clients calling at once on the same warm bridge, and for eight
 * dedicated bridges calling at once; and the memory of
 * the process trees (sum of proportional set sizes, shared pages counted once) of the
 * one shared bridge against eight dedicated `--isolated` bridges, each warmed by one
 * call.
 *
 *   bun bench/shared-clients.ts [--quick]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeConfig } from "../test/support/bridge.ts";
import { treeOf } from "../test/support/processes.ts";
import { realConfig } from "../test/support/real-bridge.ts";
import { findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { type LineClient, SharedWorld } from "../test/support/shared-bridge.ts";
import { binary, count, makeTempDir, parseOptions, removeDir } from "./common.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { pssMb } from "./procfs.ts";
import { summarize } from "./stats.ts";

const FILES = 100;
const CLIENTS = 8;
const opts = parseOptions(process.argv.slice(2));
const calls = count(opts, 20, 5);

const tls = await findTypescriptLanguageServer();
if (tls === null) {
  console.log("typescript-language-server: not measured (run .ci/setup-servers)");
  process.exit(0);
}
binary();
const root = makeTempDir("shared-clients");
const ws = generateTsWorkspace(root, FILES);
const config = writeConfig(realConfig(root, tls.config), makeTempDir("shared-clients-config"));
/** the call site of module i's call to module i+1's function */
function callArgs(i: number): Record<string, unknown> {
  const file = ws.modulePath(i);
  const next = `fn_${String(i + 1).padStart(4, "0")}`;
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  return { file, line: lines.findIndex((l) => l.includes(`return ${next}(`)) + 1, symbol: next };
}

let nextId = 100;
/** `n` definitions one after another; each call's ms. */
async function definitions(c: LineClient, n: number, offset: number): Promise<number[]> {
  const times: number[] = [];
  for (let k = 0; k < n; k++) {
    const id = nextId++;
    const start = performance.now();
    c.call(id, "definition", callArgs((offset + k) % (FILES - 1)));
    const answer = await c.answer(id, 180_000);
    times.push(performance.now() - start);
    if (answer.includes('"isError":true')) throw new Error(answer.slice(0, 300));
  }
  return times;
}

const treeMb = (pids: number[]) =>
  pids.flatMap((p) => treeOf(p).map((t) => pssMb(t.pid) ?? 0)).reduce((a, b) => a + b, 0);
const p50 = (xs: number[]) => summarize(xs).p50.toFixed(1);

const world = new SharedWorld();
try {
  const clients = Array.from({ length: CLIENTS }, () => world.client(["--config", config]));
  for (const c of clients) await c.initialize("bench");
  await definitions(clients[0] as LineClient, 3, 0); // warm: server ready, files open
  const alone = await definitions(clients[0] as LineClient, calls, 0);
  const together = (
    await Promise.all(clients.map((c, i) => definitions(c, calls, i * calls)))
  ).flat();
  const bridge = await world.only();
  const sharedMb = treeMb([bridge.pid]);
  console.log(`one client alone: definition p50 ${p50(alone)} ms (n ${alone.length})`);
  console.log(
    `${CLIENTS} clients at once: definition p50 ${p50(together)} ms (n ${together.length})`,
  );
  console.log(`shared bridge tree: ${bridge.pids.length} processes, PSS ${sharedMb.toFixed(0)} MB`);
  for (const c of clients) c.kill();

  const dedicated = Array.from({ length: CLIENTS }, () =>
    world.client(["--config", config, "--isolated"]),
  );
  for (const c of dedicated) await c.initialize("bench");
  await Promise.all(dedicated.map((c) => definitions(c, 3, 0)));
  const apart = (
    await Promise.all(dedicated.map((c, i) => definitions(c, calls, i * calls)))
  ).flat();
  const dedicatedMb = treeMb(dedicated.map((c) => c.pid));
  console.log(
    `${CLIENTS} dedicated bridges at once: definition p50 ${p50(apart)} ms (n ${apart.length})`,
  );
  console.log(`${CLIENTS} dedicated bridges' trees: PSS ${dedicatedMb.toFixed(0)} MB`);
} finally {
  await world.cleanup();
  removeDir(root);
}
