/**
 * A Chrome-format CPU profile (`bun --cpu-prof`) summarized by sample counts: JSC's
 * sampler only samples while JavaScript (or native code it called) runs, so counts are
 * CPU time of the JS thread, whereas the profile's time deltas also hold the idle gaps
 * between calls and make the waiting function look hot. Each sample is charged to a
 * group — theodolite's own files, the MCP SDK, vscode-jsonrpc, zod, Bun's runtime JS —
 * and a native function (JSON.parse, statSync, a pipe write…) to the group of the
 * nearest JavaScript frame that called it, so "syscalls made by our code" and "made by
 * vscode-jsonrpc" stay apart.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

export interface ProfileSummary {
  samples: number;
  /** samples per group, most first */
  groups: [string, number][];
  /** samples per self function ("name (group)"), most first */
  functions: [string, number][];
}

function groupOfUrl(url: string): string | null {
  if (url === "" || url === "[native code]") return null;
  if (url.includes("/node_modules/vscode-jsonrpc/")) return "vscode-jsonrpc";
  if (url.includes("/node_modules/vscode-languageserver-protocol/")) return "vscode-jsonrpc";
  if (url.includes("/node_modules/@modelcontextprotocol/")) return "MCP SDK";
  if (url.includes("/node_modules/zod/")) return "zod";
  if (url.includes("/node_modules/")) return "other packages";
  const src = url.indexOf("/src/");
  if (src >= 0)
    return `theodolite ${url
      .slice(src + 5)
      .split("/")[0]
      ?.replace(/\.ts$/, "")}`;
  return "Bun runtime (JS)";
}

export function summarizeProfile(path: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const groupCache = new Map<number, string>();
  /** the group of the nearest frame with a URL of its own, from `id` up */
  const groupOf = (id: number): string => {
    const cached = groupCache.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id);
    const own = node ? groupOfUrl(node.callFrame.url) : null;
    const up = parent.get(id);
    const g = own ?? (up === undefined ? "(root)" : groupOf(up));
    groupCache.set(id, g);
    return g;
  };
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const node = byId.get(id);
    if (!node) continue;
    const name = node.callFrame.functionName || "(anonymous)";
    if (name === "(idle)" || name === "(program)" || name === "(root)") continue;
    total += 1;
    const native = groupOfUrl(node.callFrame.url) === null;
    const group = groupOf(id);
    const key = native ? `${group} → native` : group;
    groups.set(key, (groups.get(key) ?? 0) + 1);
    const fn = `${name} (${native ? `native, from ${group}` : group}${native ? "" : `:${node.callFrame.lineNumber + 1}`})`;
    functions.set(fn, (functions.get(fn) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { samples: total, groups: sorted(groups), functions: sorted(functions) };
}

export function printSummary(s: ProfileSummary, top = 30): void {
  const pct = (n: number) => `${((100 * n) / s.samples).toFixed(1).padStart(5)} %`;
  console.log(`${s.samples} samples of the JS thread`);
  console.log("by group (a native function counts for the JS that called it):");
  for (const [g, n] of s.groups) console.log(`  ${pct(n)}  ${g}`);
  console.log(`top ${top} functions by self samples:`);
  for (const [f, n] of s.functions.slice(0, top)) console.log(`  ${pct(n)}  ${f}`);
}

if (import.meta.main) {
  const file = process.argv[2];
  if (file === undefined) throw new Error("usage: bun bench/cpuprofile.ts FILE.cpuprofile");
  printSummary(summarizeProfile(file), Number(process.argv[3] ?? 30));
}
