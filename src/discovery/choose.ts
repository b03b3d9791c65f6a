/**
 * Which presets serve a workspace (SPEC §2.1), pure: `planProbes` says which binaries are
 * worth looking for given the files present and the workspace's toolchain; `choose` turns
 * what was found into the configured servers and one report row per preset, each with why.
 *
 * TypeScript: the workspace's own `typescript` decides. 7.x is served by typescript-native
 * (its own `tsc --lsp`); older by typescript-language-server driving the workspace's
 * tsserver. Without a workspace TypeScript, typescript-language-server when there is one,
 * typescript-native only when the binaries offer nothing but TypeScript 7.
 * Python: pyright uses the root's virtual environment when there is one. One server per
 * language and role (alternatives.ts). Astro (and Vue) get a TypeScript library: the
 * workspace's, else the one installed beside the server (discover.ts finds it).
 */
import type { WorkspaceFacts } from "../config/preset-declare.ts";
import type { Preset } from "../config/presets.ts";
import type { DiscoveredPreset } from "../config/types.ts";
import { givingWay, workspaceFacts } from "./alternatives.ts";
import {
  describeServes,
  extensionsOf,
  type FileCount,
  filesCounted,
  servedHere,
  type WorkspaceFiles,
} from "./files-served.ts";
import type { WorkspaceToolchain } from "./toolchain.ts";

export { extensionsOf } from "./files-served.ts";

/** Which TypeScript a preset serves (its discovery rules): none, a tsserver, or 7.x's own. */
const servesTs = (p: Preset) => p.discovery?.typescript;

/** The name of the preset that serves TypeScript `kind`, for reasons given. */
function tsServer(presets: readonly Preset[], kind: "tsserver" | "native"): string {
  return presets.find((p) => servesTs(p) === kind)?.name ?? `no ${kind} preset`;
}

export interface Found {
  command: string;
  version: string;
  versionCommand: string[] | null;
  /** typescript-language-server without a workspace TypeScript: the one it will drive (tsserver.ts) */
  typescript?: { version: string; tsserver: string; from: string };

  /** presets with `typescriptLib`: the library found for it, null when none was */
  typescriptLib?: { lib: string; whose: string } | null;
}

/** A probe's outcome: the binary and its version, or why none qualified. */
export type ProbeOutcome = { found: Found } | { missing: string };

export interface PlannedProbe {
  preset: Preset;
  /** the binary to check instead of a lookup by name (the workspace's own tsc) */
  command?: string;
  /** looked for only when this preset was not found (typescript-native after typescript-language-server) */
  unless?: string;
}

export interface ProbePlan {
  /** every preset, in the presets' order (reports and configs read the same every time) */
  presets: readonly Preset[];
  probe: PlannedProbe[];
  notProbed: { preset: Preset; why: string }[];
  /** no file matched any preset: every preset was looked for */
  fallback: boolean;
  files: WorkspaceFiles;
}

export interface ChosenServer extends Found {
  preset: Preset;
  initializationOptions: Record<string, unknown>;
  settings: Record<string, unknown>;
  why: string;
  /** the files here it serves, in the project and under test data or tooling (rank.ts) */
  files: FileCount;
}

export interface Choice {
  chosen: ChosenServer[];
  rows: DiscoveredPreset[];
}

const dotted = (exts: string[]) => exts.map((e) => `.${e}`).join("/");

/** Which files here make the preset serve: its extensions, the names and scripts matched. */
function filesHere(preset: Preset, files: WorkspaceFiles): string {
  const labels = servedHere(preset, files);
  const parts = labels.some((l) => l.startsWith("."))
    ? [`${dotted(extensionsOf(preset))} files`]
    : [];
  parts.push(...labels.filter((l) => l.startsWith("`")));
  const scripts = labels.filter((l) => l.startsWith("#!")).map((l) => l.slice(2));
  if (scripts.length > 0) parts.push(`#!${scripts.join("/")} scripts`);
  return `${parts.join(", ")} here`;
}

/** A path for messages: relative to the root when inside it. */
function shown(root: string, path: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Why a probe with `unless` was not needed: the preset it gives way to was found. */
export function notNeeded(p: PlannedProbe): string {
  return `no workspace TypeScript: ${p.unless} serves it (${p.preset.name} only when no ${p.unless} is found)`;
}

export function planProbes(
  presets: readonly Preset[],
  files: WorkspaceFiles,
  toolchain: WorkspaceToolchain,
  root: string,
): ProbePlan {
  const relevant = presets.filter((p) => servedHere(p, files).length > 0);
  const fallback = relevant.length === 0;
  const plan: ProbePlan = { presets, probe: [], notProbed: [], fallback, files };
  const ts = toolchain.typescript;
  const tls = tsServer(presets, "tsserver");
  const native = tsServer(presets, "native");
  for (const preset of presets) {
    if (!fallback && !relevant.includes(preset)) {
      plan.notProbed.push({ preset, why: `no ${describeServes(preset)} here` });
    } else if (ts !== null && servesTs(preset) === "tsserver" && ts.major >= 7) {
      plan.notProbed.push({
        preset,
        why: `the workspace's TypeScript ${ts.version} (${shown(root, ts.package)}) is 7.x: ${native} serves it`,
      });
    } else if (ts !== null && servesTs(preset) === "native" && ts.major < 7) {
      plan.notProbed.push({
        preset,
        why: `the workspace's TypeScript ${ts.version} (${shown(root, ts.package)}) is not 7.x: ${tls} serves it`,
      });
    } else if (ts !== null && servesTs(preset) === "native") {
      if (ts.tsc === null) {
        plan.notProbed.push({ preset, why: `${shown(root, ts.package)} has no bin/tsc` });
      } else plan.probe.push({ preset, command: ts.tsc });
    } else if (servesTs(preset) === "native") {
      // no workspace TypeScript: 7.x's own server only when no tsserver-driving one is found
      plan.probe.push({ preset, unless: tls });
    } else {
      plan.probe.push({ preset });
    }
  }
  return plan;
}

/** Where the binary came from, when the workspace provided it. */
function fromWorkspace(found: Found, toolchain: WorkspaceToolchain, root: string): string {
  const bin = toolchain.bins.find((b) => found.command.startsWith(`${b}/`));
  return bin === undefined ? "" : `; the workspace's own ${shown(root, found.command)}`;
}

function whyChosen(
  preset: Preset,
  found: Found,
  toolchain: WorkspaceToolchain,
  root: string,
  plan: ProbePlan,
  here: WorkspaceFacts,
): Pick<ChosenServer, "why" | "initializationOptions" | "settings"> {
  const ts = toolchain.typescript;
  const files =
    (plan.fallback
      ? "no file here matches a server found, so every server found is configured"
      : filesHere(preset, plan.files)) + fromWorkspace(found, toolchain, root);
  const base = { initializationOptions: {}, settings: {} };
  const tsLib = found.typescriptLib;
  if (preset.typescriptLib && tsLib) {
    return {
      ...base,
      why: `${files}; TypeScript library ${shown(root, tsLib.lib)} (${tsLib.whose})`,
      initializationOptions: preset.typescriptLib(tsLib.lib),
    };
  }
  if (servesTs(preset) === "tsserver" && ts !== null && ts.tsserver !== null) {
    return {
      why: `${files}; the workspace's TypeScript ${ts.version}, through its ${shown(root, ts.tsserver)}`,
      initializationOptions: { tsserver: { path: ts.tsserver } },
      settings: {},
    };
  }
  if (servesTs(preset) === "tsserver" && found.typescript !== undefined) {
    const { version, tsserver, from } = found.typescript;
    return {
      why: `${files}; no workspace TypeScript: TypeScript ${version} ${from}, through its ${shown(root, tsserver)}`,
      initializationOptions: { tsserver: { path: tsserver } },
      settings: {},
    };
  }
  if (servesTs(preset) === "tsserver") {
    return { ...base, why: `${files}; no workspace TypeScript: the one the server finds itself` };
  }
  if (servesTs(preset) === "native" && ts !== null) {
    return {
      ...base,
      why: `${files}; the workspace's TypeScript ${ts.version} (${shown(root, found.command)})`,
    };
  }
  if (servesTs(preset) === "native") {
    return {
      ...base,
      why: `${files}; no workspace TypeScript and no ${tsServer(plan.presets, "tsserver")} with a TypeScript it can drive: ${found.version} found`,
    };
  }
  const because = preset.discovery?.chosenFor?.(here);
  if (because) return { ...base, why: `${files}; ${because}` };
  const venv = preset.discovery?.venv;
  if (venv !== undefined && toolchain.venv !== null) {
    return {
      why: `${files}; the workspace's virtual environment ${shown(root, toolchain.venv.python)}`,
      initializationOptions: {},
      settings: venv(toolchain.venv.python),
    };
  }
  if (venv !== undefined) {
    return { ...base, why: `${files}; no .venv or venv here: the interpreter on PATH` };
  }
  return { ...base, why: files };
}

export function choose(
  plan: ProbePlan,
  outcomes: readonly ProbeOutcome[],
  toolchain: WorkspaceToolchain,
  root: string,
): Choice {
  const found = new Map<string, Found>();
  const missing = new Map<string, string>();
  plan.probe.forEach((p, i) => {
    const outcome = outcomes[i];
    if (outcome && "found" in outcome) found.set(p.preset.name, outcome.found);
    else missing.set(p.preset.name, outcome?.missing ?? "not looked for");
  });
  // without a workspace TypeScript, typescript-native only when nothing else serves .ts
  for (const p of plan.probe) {
    if (p.unless !== undefined && found.has(p.unless) && found.has(p.preset.name)) {
      found.delete(p.preset.name);
      missing.set(p.preset.name, notNeeded(p));
    }
  }
  for (const p of plan.probe) {
    const f = found.get(p.preset.name);
    if (p.preset.typescriptLib && f?.typescriptLib === null) {
      found.delete(p.preset.name);
      missing.set(
        p.preset.name,
        `it needs a TypeScript library (typescript.tsdk): no TypeScript below 7.x in the workspace or beside ${f.command}`,
      );
    }
  }
  const ruffConfig = toolchain.ruffConfig === null ? null : shown(root, toolchain.ruffConfig);
  const facts = (names: Iterable<string>) =>
    workspaceFacts(plan.presets, new Set(names), { ...toolchain, ruffConfig });
  for (const { name, why } of givingWay(plan.presets, new Set(found.keys()), facts(found.keys()))) {
    found.delete(name);
    missing.set(name, why);
  }
  const notProbed = new Map(plan.notProbed.map((n) => [n.preset.name, n.why]));
  const chosen: ChosenServer[] = [];
  const rows: DiscoveredPreset[] = [];
  for (const preset of plan.presets) {
    const f = found.get(preset.name);
    const row = {
      name: preset.name,
      binaries: [...preset.binaries],
      extensions: extensionsOf(preset),
    };
    if (f) {
      const files = filesCounted(preset, plan.files.counts);
      const here = facts(found.keys());
      const c = { preset, ...f, ...whyChosen(preset, f, toolchain, root, plan, here), files };
      chosen.push(c);
      rows.push({
        ...row,
        status: "configured",
        command: f.command,
        version: f.version,
        why: c.why,
        files,
      });
    } else {
      const why = missing.get(preset.name) ?? notProbed.get(preset.name) ?? "not looked for";
      rows.push({ ...row, status: "left_out", command: null, version: null, why });
    }
  }
  return { chosen, rows };
}
