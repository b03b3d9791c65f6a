/**
 * One configuration path (SPEC §2.1), through the compiled binary, for every preset whose
 * server is installed here: what `theodolite init` prints (parsed back), what
 * `--check-config` reads from that file (its effective configuration), and what zero-config
 * serves (its discovery report) equal, key by key, what the real-server suites run
 * (test/support/discovered-server.ts) — beside it only the suites' own keys, kept apart.
 * For every preset, installed or not, the same is compared without processes in
 * test/unit/discovery/document.test.ts.
 *
 * Each workspace holds one file of each kind its presets serve, and PATH is a directory of
 * links to the located binaries (and `node` and `go`, which servers and version commands
 * run) — nothing else, so discovery finds exactly them. Presets that serve the same files
 * (alternatives, a linter beside its language's server) never share a workspace: each is
 * compared as it serves alone. Link paths are mapped back to their targets for comparing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { findPreset, type Preset } from "../../src/config/presets.ts";
import type { DiscoveredPreset, ServerConfig } from "../../src/config/types.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { closeAllBridges, ensureBinary, startBridge } from "../support/bridge.ts";
import { withOverlay } from "../support/discovered-server.ts";
import { LOCATORS } from "../support/example-config.ts";
import { ok, present } from "../support/real-bridge.ts";
import type { RealServer } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { linkedPath } from "../support/zero-config-bridge.ts";

const located: [Preset, RealServer][] = [];
const missing: string[] = [];
for (const [name, locate] of Object.entries(LOCATORS)) {
  if (locate === null) continue;
  const found = await locate();
  const preset = findPreset(name);
  if (preset && found) located.push([preset, found]);
  else missing.push(name);
}

test("every preset with an install route is located (required under CI)", () => {
  for (const name of missing) present(name, null);
});

afterAll(async () => {
  await closeAllBridges();
  removeTempDirs();
  for (const [, found] of located) {
    for (const d of found.ownDirs ?? []) rmSync(d, { recursive: true, force: true });
  }
});

/** The file kinds a preset serves: extensions, names, `#!` interpreters. */
function kinds(p: Preset): string[] {
  const { extensions, filenames, shebangs } = p.server;
  return [
    ...Object.keys(extensions).map((e) => `.${e}`),
    ...Object.keys(filenames),
    ...Object.keys(shebangs).map((s) => `#!${s}`),
  ];
}

/** Presets in groups that share no kind of file, first fit, in the presets' order. */
function groups(all: [Preset, RealServer][]): [Preset, RealServer][][] {
  const out: [Preset, RealServer][][] = [];
  for (const entry of all) {
    const mine = kinds(entry[0]);
    const fits = out.find((g) => g.every(([p]) => !kinds(p).some((k) => mine.includes(k))));
    if (fits) fits.push(entry);
    else out.push([entry]);
  }
  return out;
}

/** One file the preset serves, named after it. */
function writeServedFile(root: string, p: Preset): void {
  const ext = Object.keys(p.server.extensions)[0];
  const name = Object.keys(p.server.filenames).find((n) => !n.includes("*"));
  const script = Object.keys(p.server.shebangs)[0];
  if (ext !== undefined) writeFileSync(join(root, `${p.name}-file.${ext}`), "\n");
  else if (name !== undefined) writeFileSync(join(root, name), "\n");
  else if (script !== undefined) writeFileSync(join(root, `${p.name}-script`), `#!${script}\n`);
}

/** A workspace with one file of each kind the group serves, and the links to its servers. */
function setUp(group: [Preset, RealServer][]): {
  root: string;
  bin: string;
  links: Map<string, string>;
} {
  const dir = tempDir("theodolite-one-path-");
  const root = join(dir, "ws");
  mkdirSync(root);
  for (const [p] of group) {
    writeServedFile(root, p);
    // bacon-ls checks the crate at the root (SPEC §3.4)
    if (p.name === "bacon-ls") writeFileSync(join(root, "Cargo.toml"), '[package]\nname = "w"\n');
  }
  return {
    root,
    ...linkedPath(
      dir,
      group.map(([, found]) => found),
    ),
  };
}

/** A configuration value with every link path replaced by its target. */
function mapped<T>(value: T, links: Map<string, string>): T {
  let text = JSON.stringify(value);
  for (const [path, target] of links)
    text = text.replaceAll(JSON.stringify(path), JSON.stringify(target));
  return JSON.parse(text) as T;
}

const byName = (servers: ServerConfig[], name: string) => servers.find((s) => s.name === name);

describe("init, --check-config and zero-config give what the real-server suites run", () => {
  for (const group of groups(located)) {
    const names = group.map(([p]) => p.name);
    test(names.join(", "), async () => {
      const { root, bin, links } = setUp(group);
      const env = { PATH: bin, HOME: process.env.HOME ?? "/" };
      const init = Bun.spawnSync([ensureBinary(), "init", root], {
        env,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(init.stderr.toString()).toBe("");
      expect(init.exitCode).toBe(0);
      const printed = validateConfig(parse(init.stdout.toString()), "init").servers;
      expect(printed.map((s) => s.name).sort()).toEqual([...names].sort());

      const file = join(root, "..", "bridge.toml");
      writeFileSync(file, init.stdout);
      const check = Bun.spawnSync([ensureBinary(), "--check-config", file], {
        env,
        stdout: "pipe",
        stderr: "pipe",
      });
      const [effective = "{}", ...lines] = check.stdout.toString().split("\n");
      const checked = (JSON.parse(effective) as { servers: ServerConfig[] }).servers;

      const bridge = await startBridge({ args: [], cwd: root, env });
      const status = (await ok(bridge, "session_status")) as {
        bridge: { discovery: { servers: DiscoveredPreset[] } };
      };
      await bridge.close();
      const rows = status.bridge.discovery.servers;

      for (const [p, found] of group) {
        const suites = found.discovered;
        expect(mapped(byName(printed, p.name), links)).toEqual(suites);
        expect(mapped(byName(checked, p.name), links)).toEqual(JSON.parse(JSON.stringify(suites)));
        expect(lines).toContain(`ok   server.${p.name}.version ${JSON.stringify(suites.version)}`);
        const row = rows.find((r) => r.name === p.name);
        expect(
          mapped({ status: row?.status, command: row?.command, version: row?.version }, links),
        ).toEqual({
          status: "configured",
          command: suites.command,
          version: suites.version,
        });
        // what the suites lay over it is their own keys only, laid over key by key
        expect(
          Object.keys(found.overlay).filter((k) => k !== "env" && k !== "initialization_options"),
        ).toEqual([]);
        expect(found.config).toEqual(withOverlay(suites, found.overlay));
      }
    });
  }
});
