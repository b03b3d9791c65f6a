/**
 * A Chrome-format CPU profile (`bun --cpu-prof`) summarized by sample counts: JSC's
 * sampler only samples while JavaScript (or native code it called) runs, so counts are
 * CPU time of the JS thread, whereas the profile's time deltas also hold the idle gaps
 * between calls and make the waiting function look hot. Each sample is charged to a
 * group — theodolite's own files, the MCP SDK, vscode-jsonrpc, zod, Bun's runtime JS —
 * and a native function (JSON.parse, statSync, a pipe write…) to the group of the
 * nearest JavaScript frame that called it, so "syscalls made by our code" and "made by
 * vscode-jsonrpc" stay apart.
 *
 * A compiled build's frames all name one URL (`/$bunfs/root/NAME`, the bundle); its lines
 * are mapped back to the bundled modules through the bundle's source, which the executable
 * embeds with its bytecode, and whose `// src/…` markers name each module — present only in
 * a build without --minify (`bun build.ts --unminified --outfile PATH`). Frames of Bun's
 * own JavaScript (node:*, internal:*) stay "Bun runtime (JS)".
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
  /** samples with the function on the stack ("name (module:line)"), most first */
  inclusive: [string, number][];
}

/** Line (0-based) of a compiled build's bundle → the module it came from. */
export type BundleModules = (line: number) => string | undefined;

/**
 * The module map of an unminified compiled build, read from the bundle source the executable
 * embeds; undefined when the build was minified (no module markers) or the source is not found.
 */
export function bundleModulesOf(executable: string): BundleModules | undefined {
  const bytes = readFileSync(executable);
  const firstMarker = bytes.indexOf("\n// src/");
  if (firstMarker < 0) return undefined;
  const start = bytes.lastIndexOf("// @bun", firstMarker);
  const end = bytes.indexOf(0, firstMarker);
  if (start < 0 || end < 0) return undefined;
  const starts: { line: number; module: string }[] = [];
  bytes
    .subarray(start, end)
    .toString("utf8")
    .split("\n")
    .forEach((text, line) => {
      // a package installed through a linked node_modules is named `../<dir>/node_modules/…`
      const m = /^\/\/ (?:\.\.\/[^/]+\/)?((?:src|node_modules)\/\S+)$/.exec(text);
      if (m?.[1] !== undefined) starts.push({ line, module: m[1] });
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found: string | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = starts[mid] as { line: number; module: string };
      if (s.line <= line) {
        found = s.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
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

export function summarizeProfile(path: string, bundle?: BundleModules): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  // a compiled build's frames: the bundled module's path stands for the URL
  if (bundle !== undefined) {
    for (const n of profile.nodes) {
      if (!n.callFrame.url.includes("/$bunfs/")) continue;
      const module = bundle(n.callFrame.lineNumber);
      if (module !== undefined) n.callFrame.url = `/${module}`;
    }
  }
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
  const inclusive = new Map<string, number>();
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
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame === undefined || groupOfUrl(frame.url) === null) continue;
      const where = frame.url.replace(/^.*\/(src|node_modules)\//, "$1/");
      onStack.add(`${frame.functionName || "(anonymous)"} (${where}:${frame.lineNumber + 1})`);
    }
    for (const f of onStack) inclusive.set(f, (inclusive.get(f) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    samples: total,
    groups: sorted(groups),
    functions: sorted(functions),
    inclusive: sorted(inclusive),
  };
}

export function printSummary(s: ProfileSummary, top = 30): void {
  const pct = (n: number) => `${((100 * n) / s.samples).toFixed(1).padStart(5)} %`;
  console.log(`${s.samples} samples of the JS thread`);
  console.log("by group (a native function counts for the JS that called it):");
  for (const [g, n] of s.groups) console.log(`  ${pct(n)}  ${g}`);
  console.log(`top ${top} functions by self samples:`);
  for (const [f, n] of s.functions.slice(0, top)) console.log(`  ${pct(n)}  ${f}`);
  console.log(`top ${top} functions by samples with the function on the stack:`);
  for (const [f, n] of s.inclusive.slice(0, top)) console.log(`  ${pct(n)}  ${f}`);
}

if (import.meta.main) {
  const file = process.argv[2];
  if (file === undefined) {
    throw new Error("usage: bun bench/cpuprofile.ts FILE.cpuprofile [TOP] [EXECUTABLE]");
  }
  const executable = process.argv[4];
  const bundle = executable === undefined ? undefined : bundleModulesOf(executable);
  printSummary(summarizeProfile(file, bundle), Number(process.argv[3] ?? 30));
}
