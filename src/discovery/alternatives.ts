/**
 * One server per language and role (SPEC §2.1, §4.5), pure: of a group of alternatives the
 * one of lowest rank found serves; a server that joins beside others says when it gives way.
 */
import type { Preset, WorkspaceFacts } from "../config/preset-declare.ts";

/** The workspace as a preset's rules see it, given the presets found. */
export function workspaceFacts(
  presets: readonly Preset[],
  found: ReadonlySet<string>,
  workspace: { ruffConfig: string | null; cargoAtRoot: boolean },
): WorkspaceFacts {
  return {
    ruffConfig: workspace.ruffConfig,
    cargoAtRoot: workspace.cargoAtRoot,
    serving: (group) => membersFound(presets, found, group)[0]?.name,
  };
}

/** The presets of `group` found here, by rank. */
function membersFound(presets: readonly Preset[], found: ReadonlySet<string>, group: string) {
  const rank = (p: Preset) => p.discovery?.alternatives?.rank ?? 0;
  return presets
    .filter((p) => p.discovery?.alternatives?.group === group && found.has(p.name))
    .sort((a, b) => rank(a) - rank(b));
}

/** Who gives way to whom: `{ name, why }` for each preset found but not to serve. */
export function givingWay(
  presets: readonly Preset[],
  found: ReadonlySet<string>,
  here: WorkspaceFacts,
): { name: string; why: string }[] {
  const out: { name: string; why: string }[] = [];
  for (const group of new Set(presets.map((p) => p.discovery?.alternatives?.group))) {
    if (group === undefined) continue;
    const [first, ...rest] = membersFound(presets, found, group);
    const alt = first?.discovery?.alternatives;
    if (first === undefined || alt === undefined) continue;
    const why = `${first.name} serves the ${alt.files} files (one ${alt.language} server per workspace)`;
    for (const p of rest) out.push({ name: p.name, why });
  }
  for (const p of presets) {
    const why = found.has(p.name) ? p.discovery?.givesWay?.(here) : null;
    if (why) out.push({ name: p.name, why });
  }
  return out;
}
