/** SPEC §2.1: the configuration document zero-config and `init` share, built from the choice. */
import { describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { parse } from "smol-toml";
import { pinnedToml } from "../../../src/commands/init.ts";
import { findPreset, PRESETS, type Preset } from "../../../src/config/presets.ts";
import { INLAY_HINTS } from "../../../src/config/presets-more.ts";
import type { ServerConfig } from "../../../src/config/types.ts";
import { validateConfig } from "../../../src/config/validate.ts";
import { type ChosenServer, choose, planProbes } from "../../../src/discovery/choose.ts";
import { configDocument, discoveredConfig } from "../../../src/discovery/document.ts";
import type { WorkspaceToolchain } from "../../../src/discovery/toolchain.ts";
import { ZERO_CONFIG_SOURCE } from "../../../src/discovery/zero-config.ts";
import { filesServedBy, serverOf } from "../../support/discovered-server.ts";
import { decide, NONE, ROOT, withTypescript } from "../../support/discovery-choice.ts";

describe("configDocument", () => {
  test("the workspace's toolchain merged over the preset; rust-analyzer semantics-only beside bacon-ls; it validates", () => {
    const { chosen } = decide(["ts", "rs", "py"], {
      ...withTypescript("5.9.3"),
      venv: { dir: `${ROOT}/.venv`, python: `${ROOT}/.venv/bin/python` },
    });
    const doc = configDocument("/tmp", chosen) as {
      server: {
        name: string;
        initialization_options: unknown;
        settings: unknown;
        roles: string[];
      }[];
    };
    const tls = doc.server.find((s) => s.name === "typescript-language-server");
    expect(tls?.initialization_options).toEqual({
      preferences: INLAY_HINTS.tsserver,
      disableAutomaticTypingAcquisition: true,
      tsserver: {
        useClientFileWatcher: true,
        useSyntaxServer: "never",
        path: `${ROOT}/node_modules/typescript/lib/tsserver.js`,
      },
    });
    expect(doc.server.find((s) => s.name === "pyright")?.settings).toEqual({
      python: { pythonPath: `${ROOT}/.venv/bin/python` },
    });
    expect(doc.server.find((s) => s.name === "rust-analyzer")?.roles).toEqual(["semantics"]);
    expect(validateConfig(doc, "test").servers.map((s) => s.name)).toEqual([
      "rust-analyzer",
      "bacon-ls",
      "pyright",
      "typescript-language-server",
    ]);
  });

  test("ruff diagnoses beside pyright when the workspace configures it: pyright keeps semantics", () => {
    const { chosen } = decide(["py"], { ...NONE, ruffConfig: `${ROOT}/ruff.toml` });
    const doc = configDocument("/tmp", chosen) as { server: { name: string; roles: string[] }[] };
    expect(doc.server.map((s) => [s.name, s.roles])).toEqual([
      ["pyright", ["semantics"]],
      ["ruff", ["diagnostics"]],
    ]);
    expect(validateConfig(doc, "test").servers).toHaveLength(2);
  });

  test("no Cargo.toml in the root (a polyglot repository): bacon-ls left out, rust-analyzer diagnoses", () => {
    const { chosen, rows } = decide(["rs", "py"], { ...NONE, cargoAtRoot: false });
    const doc = configDocument("/tmp", chosen) as { server: { name: string; roles: string[] }[] };
    expect(doc.server.map((s) => [s.name, s.roles])).toEqual([
      ["rust-analyzer", ["semantics", "diagnostics"]],
      ["pyright", ["semantics", "diagnostics"]],
    ]);
    const bacon = rows.find((r) => r.name === "bacon-ls");
    expect(bacon?.why).toContain("no Cargo.toml");
  });
});

/** Every leaf of a table as `path = value`, paths dotted. */
function leaves(table: unknown, prefix = ""): string[] {
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    return [`${prefix} = ${JSON.stringify(table)}`];
  }
  const entries = Object.entries(table as Record<string, unknown>);
  if (entries.length === 0) return [`${prefix} = {}`];
  return entries.flatMap(([k, v]) => leaves(v, prefix === "" ? k : `${prefix}.${k}`));
}

/** What discovery found for every preset at once: a tsserver, a TypeScript library, a venv. */
const FOUND = {
  command: "/opt/bin/server",
  version: "1.0",
  versionCommand: null,
  typescript: { version: "5.9.3", tsserver: "/opt/ts/lib/tsserver.js", from: "beside it" },
  typescriptLib: { lib: "/opt/ts/lib", whose: "installed beside the server" },
};
const VENV = {
  ...NONE,
  venv: { dir: `${ROOT}/.venv`, python: `${ROOT}/.venv/bin/python` },
};

/** The preset chosen alone, as discovery would with the findings above. */
function chosenAlone(preset: Preset, toolchain: WorkspaceToolchain): ChosenServer {
  const plan = planProbes([preset], filesServedBy(preset), toolchain, ROOT);
  const { chosen } = choose(
    plan,
    plan.probe.map(() => ({ found: FOUND })),
    toolchain,
    ROOT,
  );
  const c = chosen[0];
  if (!c) throw new Error(`${preset.name} not chosen`);
  return c;
}

describe("one configuration path: zero-config, init and the tests' servers agree, for every preset", () => {
  const dir = realpathSync(tmpdir());
  /** the workspace's TypeScript: 7 for typescript-native, 5.9 for the others */
  const workspaceOwn = (p: Preset): WorkspaceToolchain => ({
    ...withTypescript(p.name === "typescript-native" ? "7.0.0" : "5.9.3"),
    venv: VENV.venv,
  });
  const toolchains: [string, (p: Preset) => WorkspaceToolchain][] = [
    ["no workspace toolchain", () => NONE],
    ["the workspace's TypeScript and venv", workspaceOwn],
  ];
  for (const [what, toolchain] of toolchains) {
    for (const preset of PRESETS) {
      test(`${preset.name}, ${what}`, () => {
        const c = chosenAlone(preset, toolchain(preset));
        const served = discoveredConfig(dir, [c], ZERO_CONFIG_SOURCE).servers[0];
        const printed = validateConfig(parse(pinnedToml(dir, [c], [])), "init").servers[0];
        expect(printed).toEqual(served as ServerConfig);
        expect(serverOf(c, dir)).toEqual(served as ServerConfig);
        // what discovery found is laid over the preset's tables: nothing of the preset lost
        for (const key of ["initialization_options", "settings"] as const) {
          const found = key === "settings" ? c.settings : c.initializationOptions;
          const foundPaths = leaves(found).map((l) => l.split(" = ")[0] ?? "");
          const kept = leaves(preset.server[key]).filter(
            (l) => !foundPaths.some((p) => l.startsWith(`${p} = `) || l.startsWith(`${p}.`)),
          );
          const actual = leaves(served?.[key]);
          for (const leaf of [...kept, ...leaves(found)]) {
            if (!leaf.endsWith(" = {}")) expect(actual).toContain(leaf);
          }
        }
      });
    }
  }

  test("typescript-language-server: the tsserver found beside the preset's own tsserver options", () => {
    const c = chosenAlone(findPreset("typescript-language-server") as Preset, NONE);
    expect(
      discoveredConfig(dir, [c], ZERO_CONFIG_SOURCE).servers[0]?.initialization_options,
    ).toEqual({
      preferences: INLAY_HINTS.tsserver,
      disableAutomaticTypingAcquisition: true,
      tsserver: {
        useClientFileWatcher: true,
        useSyntaxServer: "never",
        path: "/opt/ts/lib/tsserver.js",
      },
    });
  });
});
