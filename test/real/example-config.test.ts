/**
 * bridge.toml.example on a machine set up by .ci/setup-servers (SPEC §2 `--check-config`,
 * §11): every [[server]] of the example is a preset this project locates and installs —
 * all but the presets marked untested, which have no install route here — and `--check-config`
 * over the example, with only its "adjust to your machine" values filled in, finds each
 * one with its exact version. The check's lines are printed, so the CI log shows them.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRESETS } from "../../src/config/presets.ts";
import { ensureBinary, writeConfig } from "../support/bridge.ts";
import { filledServer, LOCATORS, readExample } from "../support/example-config.ts";
import { present, UNDER_CI } from "../support/real-bridge.ts";
import { materializeCFixture, type RealServer } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const example = readExample();
const names = example.server.map((s) => s.name as string);
const located = new Map<string, RealServer | null>();
for (const name of names) located.set(name, (await LOCATORS[name]?.()) ?? null);

afterAll(() => {
  removeTempDirs();
  const own = [...located.values()].flatMap((found) => found?.ownDirs ?? []);
  for (const d of own) rmSync(d, { recursive: true, force: true });
});

test("the example lists every preset, and every one but the untested is located here", () => {
  expect([...names].sort()).toEqual(PRESETS.map((p) => p.name).sort());
  expect(names.filter((n) => LOCATORS[n] === undefined)).toEqual([]);
  expect(names.filter((n) => LOCATORS[n] === null).sort()).toEqual([
    "csharp-ls",
    "jdtls",
    "kotlin-language-server",
    "lua-language-server",
    "ruby-lsp",
    "terraform-ls",
    "vue-language-server",
  ]);
});

test("--check-config over the example filled for this machine: each server found, with its version", () => {
  const servers: Record<string, unknown>[] = [];
  for (const table of example.server) {
    const name = table.name as string;
    if (LOCATORS[name] === null) continue;
    const found = located.get(name) ?? null;
    // missing: a failure under CI, else left out after its SKIPPED line
    if (!present(name, found)) continue;
    servers.push(filledServer(table, found));
  }
  if (!UNDER_CI && servers.length === 0) return;
  const kept = new Set(servers.map((s) => s.name as string));

  // "tools" keeps clangd's compile database in build/ (its file_dirs)
  const toolsRoot = materializeCFixture();
  mkdirSync(join(toolsRoot, "build"));
  copyFileSync(
    join(toolsRoot, "compile_commands.json"),
    join(toolsRoot, "build", "compile_commands.json"),
  );
  // "app" is a crate: bacon-ls requires its Cargo.toml at the root
  const appRoot = tempDir();
  writeFileSync(join(appRoot, "Cargo.toml"), '[package]\nname = "app"\nversion = "0.1.0"\n');
  const roots: Record<string, string> = { app: appRoot, tools: toolsRoot };
  const workspace = example.workspace.map((w) => ({
    ...w,
    root: roots[w.name as string],
    servers: (w.servers as string[]).filter((s) => kept.has(s)),
  }));
  const config = writeConfig({
    bridge: example.bridge,
    workspace: workspace.filter((w) => w.servers.length > 0),
    server: servers,
  });

  const run = Bun.spawnSync([ensureBinary(), "--check-config", config], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 120_000,
  });
  const lines = run.stdout.toString().split("\n").slice(1); // line 1: the effective config
  console.log(
    `theodolite --check-config (bridge.toml.example filled for this machine):\n${lines.join("\n")}`,
  );
  expect(lines.filter((l) => l.startsWith("FAIL"))).toEqual([]);
  expect(run.exitCode).toBe(0);
  for (const s of servers) {
    expect(lines).toContain(`ok   server.${s.name}.command ${s.command}`);
    expect(lines).toContain(`ok   server.${s.name}.version ${JSON.stringify(s.version)}`);
  }
  if (UNDER_CI) expect([...kept].sort()).toEqual(names.filter((n) => LOCATORS[n]).sort());
});
