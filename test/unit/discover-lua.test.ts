/**
 * Discovery with both Lua presets found (SPEC §2.1): emmylua_ls, the one tested against its
 * real server (docs/LANGUAGE-SERVERS.md), serves; lua-language-server is left out with the
 * reason, so a .lua workspace never gets two servers for the same files (AmbiguousServer).
 */
import { expect, test } from "bun:test";
import { PRESETS } from "../../src/config/presets.ts";
import { choose, type ProbeOutcome, planProbes } from "../../src/discovery/choose.ts";
import type { WorkspaceToolchain } from "../../src/discovery/toolchain.ts";

const ROOT = "/w";
const NONE: WorkspaceToolchain = { typescript: null, venv: null, bins: [] };

function decide(missing: string[]) {
  const plan = planProbes(PRESETS, new Set(["lua"]), NONE, ROOT);
  const outcomes: ProbeOutcome[] = plan.probe.map(({ preset }) =>
    missing.includes(preset.name)
      ? { missing: `\`${preset.binaries[0]}\` not found` }
      : { found: { command: `/bin/${preset.binaries[0]}`, version: "1.0", versionCommand: null } },
  );
  return choose(plan, outcomes, NONE, ROOT);
}

test("both found: emmylua_ls serves, lua-language-server is left out with the reason", () => {
  const { chosen, rows } = decide([]);
  expect(chosen.map((c) => c.preset.name)).toEqual(["emmylua_ls"]);
  expect(rows.find((r) => r.name === "lua-language-server")).toMatchObject({
    status: "left_out",
    why: "emmylua_ls serves the .lua files (one Lua server per workspace)",
  });
});

test("only lua-language-server found: it serves", () => {
  const { chosen } = decide(["emmylua_ls"]);
  expect(chosen.map((c) => c.preset.name)).toEqual(["lua-language-server"]);
});
