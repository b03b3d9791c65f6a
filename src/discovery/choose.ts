/**
 * Which presets serve a workspace (SPEC §2.1), pure: `planProbes` says which binaries are
 * worth looking for, `choose` turns what was found into the configured servers and a report
 * row per preset, each with why. The workspace's own TypeScript decides its server: 7.x its
 * own `tsc --lsp`, older a tsserver-driving one (which is also preferred without one).
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
  /** typescript-language-server without a workspace TypeScript: the one it will drive (servable.ts) */
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
  const its = ts && `the workspace's TypeScript ${ts.version} (${shown(root, ts.package)})`;
  for (const preset of presets) {
    if (!fallback && !relevant.includes(preset)) {
      plan.notProbed.push({ preset, why: `no ${describeServes(preset)} here` });
    } else if (ts !== null && servesTs(preset) === "tsserver" && ts.major >= 7) {
      plan.notProbed.push({ preset, why: `${its} is 7.x: ${native} serves it` });
    } else if (ts !== null && servesTs(preset) === "native" && ts.major < 7) {
      plan.notProbed.push({ preset, why: `${its} is not 7.x: ${tls} serves it` });
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
  const chosen = (why: string, initializationOptions = {}, settings = {}) => ({
    why: `${files}; ${why}`,
    initializationOptions,
    settings,
  });
  const tsLib = found.typescriptLib;
  if (preset.typescriptLib && tsLib) {
    const lib = `TypeScript library ${shown(root, tsLib.lib)} (${tsLib.whose})`;
    return chosen(lib, preset.typescriptLib(tsLib.lib));
  }
  const drives = servesTs(preset) === "tsserver";
  if (drives && ts !== null && ts.tsserver !== null) {
    const why = `the workspace's TypeScript ${ts.version}, through its ${shown(root, ts.tsserver)}`;
    return chosen(why, { tsserver: { path: ts.tsserver } });
  }
  if (drives && found.typescript !== undefined) {
    const { version, tsserver, from } = found.typescript;
    const why = `no workspace TypeScript: TypeScript ${version} ${from}, through its ${shown(root, tsserver)}`;
    return chosen(why, { tsserver: { path: tsserver } });
  }
  if (drives) return chosen("no workspace TypeScript: the one the server finds itself");
  if (servesTs(preset) === "native") {
    return chosen(
      ts !== null
        ? `the workspace's TypeScript ${ts.version} (${shown(root, found.command)})`
        : `no workspace TypeScript and no ${tsServer(plan.presets, "tsserver")} with a TypeScript it can drive: ${found.version} found`,
    );
  }
  const because = preset.discovery?.chosenFor?.(here);
  if (because) return chosen(because);
  const venv = preset.discovery?.venv;
  if (venv !== undefined && toolchain.venv !== null) {
    const why = `the workspace's virtual environment ${shown(root, toolchain.venv.python)}`;
    return chosen(why, {}, venv(toolchain.venv.python));
  }
  if (venv !== undefined) return chosen("no .venv or venv here: the interpreter on PATH");
  return { why: files, initializationOptions: {}, settings: {} };
}

export function choose(
  plan: ProbePlan,
  outcomes: readonly ProbeOutcome[],
  toolchain: WorkspaceToolchain,
  root: string,
): Choice {
  const found = new Map<string, Found>();
  const missing = new Map<string, string>();
  const leaveOut = (name: string, why: string) => {
    found.delete(name);
    missing.set(name, why);
  };
  plan.probe.forEach((p, i) => {
    const outcome = outcomes[i];
    if (outcome && "found" in outcome) found.set(p.preset.name, outcome.found);
    else missing.set(p.preset.name, outcome?.missing ?? "not looked for");
  });
  for (const p of plan.probe) {
    const { name } = p.preset;
    const f = found.get(name);
    // without a workspace TypeScript, typescript-native only when nothing else serves .ts
    if (p.unless !== undefined && found.has(p.unless) && f) leaveOut(name, notNeeded(p));
    else if (p.preset.typescriptLib && f?.typescriptLib === null) {
      const why = `it needs a TypeScript library (typescript.tsdk): no TypeScript below 7.x in the workspace or beside ${f.command}`;
      leaveOut(name, why);
    }
  }
  const ruffConfig = toolchain.ruffConfig === null ? null : shown(root, toolchain.ruffConfig);
  const facts = () =>
    workspaceFacts(plan.presets, new Set(found.keys()), { ...toolchain, ruffConfig });
  for (const { name, why } of givingWay(plan.presets, new Set(found.keys()), facts())) {
    leaveOut(name, why);
  }
  const here = facts();
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
