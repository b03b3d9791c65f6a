/**
 * The bridge's own work on a reference list, in process (docs/PERFORMANCE.md, "Where the
 * per-call time goes"): 601 locations over 600 files of a real directory, through the
 * workspace's line tables and vouches as a references call uses them (Workspace.callLines,
 * its URI names), then the vanished check, paging, the size cap and the MCP result's
 * serialization — the answer path after the server's body is parsed, which a direct client
 * does not take. Printed: CPU per call of each stage after warm-up.
 *
 * Compiled at the bridge's JIT policy it runs in the tiers the shipped bridge does; under
 * valgrind its instruction count per call is an A/B measure that load hardly moves:
 *
 *   bun build --compile --compile-jit-policy=10000 bench/locations.ts --outfile /tmp/loc
 *   LOCATIONS_CALLS=0 valgrind --tool=callgrind /tmp/loc   (and again with 150: the
 *   difference ÷ 150 is one call's instructions)
 *
 * Not part of `run.ts`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { enforceSizeCap } from "../src/normalize/cap.ts";
import { normalizeLocations, withoutVanished } from "../src/normalize/locations.ts";
import { page } from "../src/normalize/paging.ts";
import { makeNormalizeContext } from "../src/normalize/range-converter.ts";
import { LSP_LINES } from "../src/text/line-model.ts";
import { NONE_OPEN } from "../src/workspace/call-lines.ts";
import { workspaceAt } from "../test/support/workspace.ts";
import { makeTempDir, removeDir } from "./common.ts";

const FILES = 600;
const CALLS = Number(process.env.LOCATIONS_CALLS ?? 300);
const WARMUP = 20;

const root = makeTempDir("locations");
mkdirSync(join(root, "src"));
for (let f = 0; f < FILES; f++) {
  const lines = Array.from({ length: 40 }, (_, l) => `export const v${l} = shared(${l}) + ${f};`);
  writeFileSync(join(root, "src", `m${f}.ts`), `${lines.join("\n")}\n`);
}
const ws = workspaceAt(root);
const at = (line: number) => ({ start: { line, character: 20 }, end: { line, character: 26 } });
const answer = Array.from({ length: FILES }, (_, i) => ({
  uri: `file://${root}/src/m${(i * 7) % FILES}.ts`,
  range: at(3),
}));
answer.push({ uri: `file://${root}/src/m0.ts`, range: at(5) });
const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: answer });

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const spent = { parse: 0, convert: 0, vanished: 0, answer: 0 };

async function call(): Promise<number> {
  const t0 = cpuMs();
  const result = JSON.parse(body).result;
  const t1 = cpuMs();
  const norm = makeNormalizeContext({
    root: ws.root,
    rootReal: ws.rootReal,
    encoding: "utf-16",
    unit: "code-point",
    model: LSP_LINES,
    // one call's tables, as tools/common.ts normalizeContext makes them: no open documents
    tables: ws.callLines(LSP_LINES, NONE_OPEN),
    names: ws.uriNames,
  });
  const locs = await norm.convert(() => normalizeLocations(result, norm));
  const t2 = cpuMs();
  const { kept } = withoutVanished(locs, (f) => norm.found(f));
  const t3 = cpuMs();
  const p = page(kept, { offset: 0, limit: undefined });
  const json = enforceSizeCap({ locations: p.items, total: p.total }, p.items.length, 262_144, {
    pages: { key: "locations", items: kept, offset: 0 },
    maxLimit: 1000,
  });
  const out = `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}}`;
  const t4 = cpuMs();
  spent.parse += t1 - t0;
  spent.convert += t2 - t1;
  spent.vanished += t3 - t2;
  spent.answer += t4 - t3;
  return out.length;
}

try {
  for (let i = 0; i < WARMUP; i++) await call();
  for (const k of Object.keys(spent) as (keyof typeof spent)[]) spent[k] = 0;
  for (let i = 0; i < CALLS; i++) await call();
  if (CALLS > 0) {
    const per = (ms: number) => (ms / CALLS).toFixed(3);
    const total = spent.parse + spent.convert + spent.vanished + spent.answer;
    console.log(
      `601 locations, ${FILES} files, ${CALLS} calls, CPU ms a call: parse ${per(spent.parse)}, ` +
        `convert ${per(spent.convert)}, vanished ${per(spent.vanished)}, ` +
        `page+cap+serialize ${per(spent.answer)}, total ${per(total)}`,
    );
  }
} finally {
  ws.close();
  removeDir(root);
}
