/**
 * Discovery with both Lua presets on PATH (SPEC §2.1): emmylua_ls, the one tested against
 * its real server (docs/LANGUAGE-SERVERS.md), supersedes lua-language-server, so a .lua
 * workspace never gets two servers for the same files (AmbiguousServer).
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { type DiscoveredServer, serversFor } from "../../src/config/discover.ts";
import { findPreset } from "../../src/config/presets.ts";
import { tempDir } from "../support/bridge.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function discovered(name: string): DiscoveredServer {
  const preset = findPreset(name);
  if (!preset) throw new Error(`no preset ${name}`);
  return { preset, command: `/opt/bin/${name}`, version: "1", versionCommand: null };
}

test("emmylua_ls supersedes lua-language-server, with the reason given", async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeFileSync(`${dir}/main.lua`, "print(1)\n");
  const { chosen, skipped } = await serversFor(dir, [
    discovered("lua-language-server"),
    discovered("emmylua_ls"),
  ]);
  expect(chosen.map((d) => d.preset.name)).toEqual(["emmylua_ls"]);
  expect(skipped).toEqual(["lua-language-server: emmylua_ls serves the same files"]);
});

test("lua-language-server alone is still chosen", async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeFileSync(`${dir}/main.lua`, "print(1)\n");
  const { chosen } = await serversFor(dir, [discovered("lua-language-server")]);
  expect(chosen.map((d) => d.preset.name)).toEqual(["lua-language-server"]);
});
