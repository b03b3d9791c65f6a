/**
 * Discovery (SPEC §2.1), the one flow behind zero-config and `init`: the workspace's
 * toolchain and file extensions (no process runs), then the version command of each
 * preset worth looking for, all at once, then the choice with a reason per preset.
 */
import { PRESETS } from "../config/presets.ts";
import type { DiscoveryReport } from "../config/types.ts";
import {
  type ChosenServer,
  choose,
  extensionsOf,
  notNeeded,
  type PlannedProbe,
  type ProbeOutcome,
  planProbes,
} from "./choose.ts";
import { probePreset } from "./probe.ts";
import { scanExtensions } from "./scan.ts";
import { servable } from "./servable.ts";
import { workspaceToolchain } from "./toolchain.ts";

export interface Discovery {
  chosen: ChosenServer[];
  report: DiscoveryReport;
}

/** Every preset's files are present: scanning further cannot change the choice. */
function everyPresetMatched(extensions: ReadonlySet<string>): boolean {
  return PRESETS.every((p) => extensionsOf(p).some((e) => extensions.has(e)));
}

/** `root` must be an absolute, real directory path; `signal` stops the version commands. */
export async function discover(
  root: string,
  path = process.env.PATH ?? "",
  signal?: AbortSignal,
): Promise<Discovery> {
  const toolchain = workspaceToolchain(root);
  const scan = await scanExtensions(root, undefined, everyPresetMatched);
  const plan = planProbes(PRESETS, scan.extensions, toolchain, root);
  const searchPath = [...toolchain.bins, path].filter((p) => p !== "").join(":");
  const probe = (p: PlannedProbe) => probePreset(p, searchPath, root, signal);
  // all at once, but a fallback (typescript-native) only when what it falls back from is
  // missing: one version run (a Node start) fewer in the common case
  const probed = await Promise.all(plan.probe.map((p) => (p.unless ? undefined : probe(p))));
  const first = probed.map((o, i) =>
    servable(plan.probe[i] as PlannedProbe, o, toolchain, searchPath),
  );
  const foundNames = new Set(
    plan.probe.filter((_, i) => first[i] && "found" in first[i]).map((p) => p.preset.name),
  );
  const outcomes = await Promise.all(
    plan.probe.map((p, i): ProbeOutcome | Promise<ProbeOutcome> => {
      const done = first[i];
      if (done) return done;
      return p.unless && foundNames.has(p.unless) ? { missing: notNeeded(p) } : probe(p);
    }),
  );
  const { chosen, rows } = choose(plan, outcomes, toolchain, root);
  return {
    chosen,
    report: {
      root,
      workspace_bins: toolchain.bins,
      scan: {
        entries: scan.entries,
        truncated: scan.truncated,
        extensions: [...scan.extensions].sort(),
      },
      toolchain: {
        typescript: toolchain.typescript
          ? { version: toolchain.typescript.version, package: toolchain.typescript.package }
          : null,
        python: toolchain.venv ? { interpreter: toolchain.venv.python } : null,
      },
      servers: rows,
    },
  };
}
