/**
 * The order discovery lists a workspace's servers in (SPEC §2.1, §9.1): the project's own
 * sources first, most files first, then languages found only under test data or tooling
 * (`incidental`), then data-file servers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { findPreset, PRESETS, type Preset } from "../../../src/config/presets.ts";
import { standings } from "../../../src/config/standing.ts";
import { choose, planProbes } from "../../../src/discovery/choose.ts";
import { configDocument, discoveredConfig } from "../../../src/discovery/document.ts";
import { filesCounted } from "../../../src/discovery/files-served.ts";
import { rankServers } from "../../../src/discovery/rank.ts";
import { scanExtensions } from "../../../src/discovery/scan.ts";
import { foundAll, NONE } from "../../support/discovery-choice.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const preset = (name: string) => findPreset(name) as Preset;
const ranked = (s: [string, number, number][]) =>
  rankServers(s.map(([n, project, aside]) => ({ preset: preset(n), files: { project, aside } })));

describe("rankServers", () => {
  test("the project's sources by files, then incidental, then data files; ties keep the input's order", () => {
    const { ranked: order, incidental } = ranked([
      ["vscode-json-language-server", 40, 0],
      ["bash-language-server", 0, 3],
      ["pyright", 5, 1],
      ["gopls", 30, 200],
      ["typescript-language-server", 0, 9],
      ["yaml-language-server", 2, 0],
      ["clangd", 5, 0],
    ]);
    expect(order.map((s) => s.preset.name)).toEqual([
      "gopls",
      "pyright",
      "clangd",
      "typescript-language-server",
      "bash-language-server",
      "vscode-json-language-server",
      "yaml-language-server",
    ]);
    expect(incidental.map((s) => s.preset.name)).toEqual([
      "typescript-language-server",
      "bash-language-server",
    ]);
  });

  test("a language with fewer than a tenth of the first's files is minor: incidental", () => {
    // gopls' repository: JavaScript and CSS of a tool's web page, a shell script in internal/
    const { ranked: order, incidental } = ranked([
      ["typescript-language-server", 7, 0],
      ["gopls", 829, 445],
      ["vscode-css-language-server", 4, 0],
      ["pyright", 83, 0],
      ["bash-language-server", 2, 0],
    ]);
    expect(order.map((s) => s.preset.name)).toEqual([
      "gopls",
      "pyright",
      "typescript-language-server",
      "vscode-css-language-server",
      "bash-language-server",
    ]);
    expect(incidental.map((s) => s.preset.name)).toEqual([
      "typescript-language-server",
      "vscode-css-language-server",
      "bash-language-server",
    ]);
  });
});

describe("a gopls-like repository, from its files to its workspace", () => {
  test("Go is main; TypeScript and shell in testdata/ and scripts/ are incidental; YAML and JSON last", async () => {
    const root = tempDir("theodolite-rank-", [
      "go.mod",
      "main.go",
      "internal/cache/cache.go",
      "internal/cache/load.go",
      "internal/cache/testdata/a.ts",
      "internal/cache/testdata/b.ts",
      "internal/cache/testdata/run.sh",
      "test/fixtures/more.ts",
      "scripts/release.sh",
      "docs/settings.json",
      ".github/ci.yaml",
      "config.yaml",
    ]);
    const scan = await scanExtensions(root);
    // counted apart under testdata/, fixtures/, scripts/ and docs/ wherever they lie
    const counted = (name: string) => filesCounted(preset(name), scan.counts);
    expect(counted("gopls")).toEqual({ project: 4, aside: 0 });
    expect(counted("typescript-language-server")).toEqual({ project: 0, aside: 3 });
    expect(counted("bash-language-server")).toEqual({ project: 0, aside: 2 });
    const plan = planProbes(PRESETS, scan, NONE, root);
    const { chosen } = choose(plan, foundAll(plan), NONE, root);
    const doc = configDocument(root, chosen) as { workspace: Record<string, unknown>[] };
    expect(doc.workspace[0]?.servers).toEqual([
      "gopls",
      "typescript-language-server",
      "bash-language-server",
      // the YAML file is the project's; the JSON one is under docs/
      "yaml-language-server",
      "vscode-json-language-server",
    ]);
    expect(doc.workspace[0]?.incidental).toEqual([
      "typescript-language-server",
      "bash-language-server",
    ]);
    const config = discoveredConfig(root, chosen, "test");
    const ws = config.workspaces[0];
    if (!ws) throw new Error("no workspace");
    expect(standings(config, ws).map((s) => [s.server.name, s.tier])).toEqual([
      ["gopls", "main"],
      ["typescript-language-server", "incidental"],
      ["bash-language-server", "incidental"],
      ["yaml-language-server", "data"],
      ["vscode-json-language-server", "data"],
    ]);
  });
});
