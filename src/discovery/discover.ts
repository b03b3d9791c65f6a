/**
 * Discovery (SPEC §2.1), the one flow behind zero-config and `init`: the workspace's
 * toolchain and files, the version commands of the presets worth looking for, the choice.
 */
import { dirname } from "node:path";
import { PRESETS, type Preset } from "../config/presets.ts";
import type { DiscoveryReport } from "../config/types.ts";
import { sideBySide } from "../side-by-side.ts";
import {
  type Choice,
  type ChosenServer,
  choose,
  notNeeded,
  type PlannedProbe,
  type ProbeOutcome,
  type ProbePlan,
  planProbes,
} from "./choose.ts";
import { extensionsOf } from "./files-served.ts";
import { probePreset } from "./probe.ts";
import { scanExtensions } from "./scan.ts";
import { servable } from "./servable.ts";
import {
  realOrNull,
  typescriptLibFrom,
  type WorkspaceToolchain,
  workspaceToolchain,
} from "./toolchain.ts";

export interface Discovery {
  chosen: ChosenServer[];
  report: DiscoveryReport;
}

/** Version commands run at once, at most: each starts a runtime, twenty outran their bound. */
const MAX_VERSION_RUNS = 6;

/** Every preset's files are present: scanning further cannot change the choice. */
function everyPresetMatched(extensions: ReadonlySet<string>): boolean {
  return PRESETS.every((p) => extensionsOf(p).some((e) => extensions.has(e)));
}

/** A preset's TypeScript library: the workspace's (below 7.x), else the one beside the server. */
function withTypescriptLib(
  preset: Preset,
  outcome: ProbeOutcome,
  toolchain: WorkspaceToolchain,
): ProbeOutcome {
  if (!preset.typescriptLib || !("found" in outcome)) return outcome;
  const ts = toolchain.typescript;
  const own = ts !== null ? typescriptLibFrom(dirname(ts.package)) : null;
  if (own !== null)
    return { found: { ...outcome.found, typescriptLib: { lib: own, whose: "the workspace's" } } };
  // the binary may have vanished since its version run: no library either
  const real = realOrNull(outcome.found.command);
  const beside = real === null ? null : typescriptLibFrom(dirname(real));
  const typescriptLib =
    beside === null ? null : { lib: beside, whose: "installed beside the server" };
  return { found: { ...outcome.found, typescriptLib } };
}

/**
 * The plan carried out: each planned binary looked for and its version run, a few at a time
 * (a probe with `unless` only when what it falls back from is missing), whether it can serve
 * here, its TypeScript library, then the choice.
 */
export async function carryOut(
  plan: ProbePlan,
  toolchain: WorkspaceToolchain,
  root: string,
  path: string,
  signal?: AbortSignal,
): Promise<Choice> {
  const searchPath = [...toolchain.bins, path].filter((p) => p !== "").join(":");
  const probe = (p: PlannedProbe) => probePreset(p, searchPath, root, signal);
  const probed = await sideBySide(plan.probe, MAX_VERSION_RUNS, async (p) =>
    p.unless ? undefined : probe(p),
  );
  const first = probed.map((o, i) =>
    servable(plan.probe[i] as PlannedProbe, o, toolchain, searchPath),
  );
  const foundNames = new Set(
    plan.probe.filter((_, i) => first[i] && "found" in first[i]).map((p) => p.preset.name),
  );
  const indexed = plan.probe.map((p, i) => ({ p, done: first[i] }));
  const outcomes = await sideBySide(indexed, MAX_VERSION_RUNS, async ({ p, done }) => {
    if (done) return done;
    return p.unless && foundNames.has(p.unless) ? { missing: notNeeded(p) } : probe(p);
  });
  const libs = outcomes.map((o, i) => withTypescriptLib(plan.probe[i]!.preset, o, toolchain));
  return choose(plan, libs, toolchain, root);
}

/** `root` must be an absolute, real directory path; `signal` stops the version commands. */
export async function discover(
  root: string,
  path = process.env.PATH ?? "",
  signal?: AbortSignal,
): Promise<Discovery> {
  const toolchain = workspaceToolchain(root);
  const scan = await scanExtensions(root, undefined, everyPresetMatched);
  const plan = planProbes(PRESETS, scan, toolchain, root);
  const { chosen, rows } = await carryOut(plan, toolchain, root, path, signal);
  const ts = toolchain.typescript;
  return {
    chosen,
    report: {
      root,
      workspace_bins: toolchain.bins,
      scan: {
        entries: scan.entries,
        truncated: scan.truncated,
        extensions: [...scan.extensions].sort(),
        interpreters: [...scan.interpreters].sort(),
      },
      toolchain: {
        typescript: ts ? { version: ts.version, package: ts.package } : null,
        python: toolchain.venv ? { interpreter: toolchain.venv.python } : null,
      },
      servers: rows,
    },
  };
}
