/**
 * Locating the servers of the polyglot fixture's languages (SPEC §11), as .ci/setup-servers
 * installs them: npm ones in test/servers/node_modules/.bin (pins: test/servers/package.json),
 * PyPI ones in the test/servers/lsp venv (pins: test/servers/lsp-requirements.txt), Debian
 * ones on PATH, cargo ones in $CARGO_HOME/bin (pins: test/servers/pins.env). Each config is
 * what discovery configures for the binary (test/support/discovered-server.ts); a server
 * missing, or at another version than pinned, is a loud SKIPPED line (a failure under CI,
 * test/support/real-bridge.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Table } from "../../src/config/merge.ts";
import serversPkg from "../servers/package.json" with { type: "json" };
import { PINS } from "./built-servers.ts";
import {
  fromPreset,
  type RealServer,
  SETUP_HINT,
  skipLoudly,
  TEST_SERVERS_DIR,
} from "./real-servers.ts";
import { executablesNamed } from "./rust-src.ts";
import { removeTempDir, tempDir } from "./temp-dirs.ts";

const NPM_BIN = join(TEST_SERVERS_DIR, "node_modules", ".bin");
const LSP_VENV_BIN = join(TEST_SERVERS_DIR, "lsp", "bin");

/** test/servers/lsp-requirements.txt as name → version. */
function pipPins(): Record<string, string> {
  const pins: Record<string, string> = {};
  const text = readFileSync(join(TEST_SERVERS_DIR, "lsp-requirements.txt"), "utf8");
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z0-9_.-]+)==(\S+)$/.exec(line.trim());
    if (m) pins[m[1]!] = m[2]!;
  }
  return pins;
}

const npm = serversPkg.dependencies;
const pip = pipPins();

/** How each server's version reads when it is the pinned one. */
export const LANGUAGE_PINS: Record<string, string> = {
  "vscode-html-language-server": npm["vscode-langservers-extracted"],
  "vscode-css-language-server": npm["vscode-langservers-extracted"],
  "vscode-json-language-server": npm["vscode-langservers-extracted"],
  "yaml-language-server": npm["yaml-language-server"],
  "svelte-language-server": npm["svelte-language-server"],
  "astro-ls": npm["@astrojs/language-server"],
  "graphql-lsp": npm["graphql-language-service-cli"],
  intelephense: npm.intelephense,
  "postgres-language-server": `Version: ${npm["@postgres-language-server/cli"]}`,
  "bash-language-server": npm["bash-language-server"],
  "docker-langserver": npm["dockerfile-language-server-nodejs"],
  ruff: `ruff ${pip.ruff}`,
  ty: `ty ${pip.ty}`,
  basedpyright: `basedpyright ${pip.basedpyright}\nbased on pyright 1.1.414`,
  fortls: `${pip.fortls}`,
  "cmake-language-server": `cmake-language-server ${pip["cmake-language-server"]}`,
  texlab: `texlab ${PINS.texlab}`,
  taplo: `taplo ${PINS.taplo}`,
  // Debian 12's packages
  ccls: "Debian ccls version 0.20220729-2\nclang version 14.0.6",
  pylsp: "pylsp v1.7.1",
};

/** How each is installed, for the SKIPPED line. */
const ROUTE: Record<string, string> = {
  npm: "npm (test/servers/package.json)",
  pip: "pip (test/servers/lsp-requirements.txt)",
  apt: "apt-get install",
  cargo: "cargo install --locked",
};

async function located(
  preset: string,
  command: string | null,
  route: keyof typeof ROUTE,
  overlay: Table = {},
): Promise<RealServer | null> {
  const install = `${ROUTE[route]} (or ${SETUP_HINT})`;
  if (command === null || !existsSync(command)) {
    skipLoudly(preset, `not found — ${install}`);
    return null;
  }
  const pinned = LANGUAGE_PINS[preset];
  const refuse = (v: string) =>
    v === pinned ? null : `prints ${JSON.stringify(v)}, pinned ${JSON.stringify(pinned)}`;
  return fromPreset(preset, command, { overlay, refuse, install });
}

const npmBin = (bin: string) => (existsSync(join(NPM_BIN, bin)) ? join(NPM_BIN, bin) : null);
const pipBin = (bin: string) => join(LSP_VENV_BIN, bin);
const pathBin = (bin: string) => executablesNamed(bin)[0] ?? null;
function cargoBin(bin: string): string | null {
  const home = process.env.CARGO_HOME ?? join(process.env.HOME ?? "", ".cargo");
  return pathBin(bin) ?? join(home, "bin", bin);
}

/** Where each preset's binary comes from in this project's setup. */
const SOURCES: Record<string, () => [string | null, keyof typeof ROUTE]> = {
  "vscode-html-language-server": () => [npmBin("vscode-html-language-server"), "npm"],
  "vscode-css-language-server": () => [npmBin("vscode-css-language-server"), "npm"],
  "vscode-json-language-server": () => [npmBin("vscode-json-language-server"), "npm"],
  "yaml-language-server": () => [npmBin("yaml-language-server"), "npm"],
  "svelte-language-server": () => [npmBin("svelteserver"), "npm"],
  "astro-ls": () => [npmBin("astro-ls"), "npm"],
  "graphql-lsp": () => [npmBin("graphql-lsp"), "npm"],
  intelephense: () => [npmBin("intelephense"), "npm"],
  "postgres-language-server": () => [npmBin("postgres-language-server"), "npm"],
  "bash-language-server": () => [npmBin("bash-language-server"), "npm"],
  "docker-langserver": () => [npmBin("docker-langserver"), "npm"],
  ruff: () => [pipBin("ruff"), "pip"],
  ty: () => [pipBin("ty"), "pip"],
  basedpyright: () => [pipBin("basedpyright-langserver"), "pip"],
  fortls: () => [pipBin("fortls"), "pip"],
  "cmake-language-server": () => [pipBin("cmake-language-server"), "pip"],
  texlab: () => [cargoBin("texlab"), "cargo"],
  taplo: () => [cargoBin("taplo"), "cargo"],
  ccls: () => [pathBin("ccls"), "apt"],
  pylsp: () => [pathBin("pylsp"), "apt"],
};

export const LANGUAGE_SERVERS = Object.keys(SOURCES);

/**
 * The pinned server for `preset`, as discovery configures it (astro-ls with the TypeScript
 * library installed beside it), plus what the tests need: postgres-language-server's daemon
 * socket in a directory of the test's own (it is shared per user otherwise).
 */
export async function findLanguageServer(preset: string): Promise<RealServer | null> {
  const source = SOURCES[preset];
  if (!source) throw new Error(`no source for ${preset}`);
  const [command, route] = source();
  if (preset !== "postgres-language-server") return located(preset, command, route);
  const cache = tempDir("theodolite-pgls-");
  const found = await located(preset, command, route, { env: { XDG_CACHE_HOME: cache } });
  if (found) found.ownDirs = [cache];
  else removeTempDir(cache);
  return found;
}
