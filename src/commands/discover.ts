/**
 * Zero-config mode and `theodolite init` (SPEC §2): the presets whose
 * binaries are on PATH, resolved to absolute paths and exact version strings.
 * Zero-config serves the current directory unpinned (a warning says so);
 * `init` prints a pinned bridge.toml that --check-config accepts.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { stringify } from "smol-toml";
import { PRESETS, type Preset, presetServerTable } from "../config/presets.ts";
import type { Config, ServerConfig } from "../config/types.ts";
import { validateConfig } from "../config/validate.ts";
import { BridgeError } from "../errors.ts";
import { log } from "../log.ts";
import { readServerVersion } from "../process/version-pin.ts";

export interface DiscoveredServer {
  preset: Preset;
  command: string;
  version: string;
  versionCommand: string[] | null;
}

/** Presets found on PATH whose version command works (a broken rustup proxy is skipped). */
export async function discoverServers(
  cwd: string,
  path = process.env.PATH ?? "",
): Promise<DiscoveredServer[]> {
  const found = await Promise.all(
    PRESETS.map(async (preset): Promise<DiscoveredServer | undefined> => {
      for (const bin of preset.binaries) {
        const command = Bun.which(bin, { PATH: path });
        if (command === null) continue;
        const versionCommand = preset.versionCommand ? preset.versionCommand(command) : null;
        if (preset.versionCommand && versionCommand === null) continue;
        const probe = {
          ...preset.server,
          name: preset.name,
          command,
          version: "",
          version_command: versionCommand,
        } as ServerConfig;
        try {
          const version = await readServerVersion(probe, cwd);
          if (preset.versionPattern && !preset.versionPattern.test(version)) {
            log.debug(`discover: ${command} is not ${preset.name} (version "${version}")`);
            continue;
          }
          return { preset, command, version, versionCommand };
        } catch (err) {
          log.debug(`discover: ${command} skipped: ${(err as Error).message}`);
        }
      }
      return undefined;
    }),
  );
  return found.filter((d): d is DiscoveredServer => d !== undefined);
}

/** File extensions present under `dir` (bounded scan; dot-dirs and node_modules skipped). */
export async function extensionsIn(dir: string, maxFiles = 20000): Promise<Set<string>> {
  const exts = new Set<string>();
  let seen = 0;
  for await (const rel of new Bun.Glob("**/*").scan({ cwd: dir, onlyFiles: true, dot: false })) {
    if (rel.split("/").includes("node_modules")) continue;
    const ext = extname(rel).slice(1);
    if (ext) exts.add(ext);
    if (++seen >= maxFiles) break;
  }
  return exts;
}

/**
 * The servers worth configuring for `dir`: those whose extensions occur there (all of
 * them when none do), minus those superseded by a better server found for the same files
 * and those whose workspace prerequisites are missing — with the
 * reason for each one left out, so the result always passes --check-config.
 */
export async function serversFor(
  dir: string,
  found: DiscoveredServer[],
): Promise<{ chosen: DiscoveredServer[]; skipped: string[] }> {
  const exts = await extensionsIn(dir);
  const superseded = new Set(found.flatMap((d) => d.preset.supersedes ?? []));
  const relevant = found.filter((d) =>
    Object.keys(d.preset.server.extensions).some((e) => exts.has(e)),
  );
  const candidates = relevant.length > 0 ? relevant : found;
  const skipped = found
    .filter((d) => !candidates.includes(d))
    .map(
      (d) =>
        `${d.preset.name}: no ${Object.keys(d.preset.server.extensions)
          .map((e) => `.${e}`)
          .join("/")} files here`,
    );
  const chosen: DiscoveredServer[] = [];
  for (const d of candidates) {
    if (superseded.has(d.preset.name)) {
      const by = found.find((f) => f.preset.supersedes?.includes(d.preset.name))?.preset.name;
      skipped.push(`${d.preset.name}: ${by} serves the same files`);
      continue;
    }
    const missing = d.preset.server.requires.find((r) => !existsSync(join(dir, r.file)));
    if (missing) skipped.push(`${d.preset.name}: no ${missing.file} at the root (${missing.hint})`);
    else chosen.push(d);
  }
  return { chosen, skipped };
}

/** A valid workspace name from a directory name. */
export function workspaceNameFor(dir: string): string {
  const name = basename(dir)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name.length > 0 ? name : "workspace";
}

/** The TOML document for `dir` and the discovered servers. */
export function configDocument(dir: string, servers: DiscoveredServer[]): Record<string, unknown> {
  const tables = servers.map((d) =>
    presetServerTable(d.preset, d.command, d.version, d.versionCommand),
  );
  // rust-analyzer and bacon-ls both diagnose Rust: with both, bacon-ls diagnoses and
  // rust-analyzer answers semantics only, so routing is never ambiguous (SPEC §4.5)
  const names = new Set(servers.map((d) => d.preset.name));
  if (names.has("rust-analyzer") && names.has("bacon-ls")) {
    const ra = tables.find((t) => t.name === "rust-analyzer");
    if (ra) ra.roles = ["semantics"];
  }
  return {
    workspace: [{ name: workspaceNameFor(dir), root: dir, servers: tables.map((t) => t.name) }],
    server: tables,
  };
}

function checkDir(dir: string): string {
  const abs = resolve(dir);
  try {
    if (statSync(abs).isDirectory()) return realpathSync(abs);
  } catch {
    // reported below
  }
  throw new BridgeError(
    "ConfigInvalid",
    `workspace directory ${abs} does not exist or is not a directory`,
    {
      hint: "pass an existing directory",
      details: { path: "workspace.root", expected: "an existing directory" },
    },
  );
}

function noServers(skipped: string[]): BridgeError {
  const why = skipped.length > 0 ? ` (left out: ${skipped.join("; ")})` : "";
  return new BridgeError("ConfigInvalid", `no usable language server was found on PATH${why}`, {
    hint: `install one of: ${PRESETS.map((p) => p.binaries.join("/")).join(", ")}; or write a bridge.toml (see bridge.toml.example)`,
  });
}

export async function zeroConfig(cwd: string): Promise<Config> {
  const dir = checkDir(cwd);
  const { chosen: servers, skipped } = await serversFor(dir, await discoverServers(dir));
  if (servers.length === 0) throw noServers(skipped);
  for (const why of skipped) log.info(`zero-config: left out ${why}`);
  log.warn(
    `zero-config mode: serving ${dir} with ${servers.map((s) => s.preset.name).join(", ")} found on PATH; ` +
      "nothing is pinned by you — run `theodolite init` and use --config for a pinned setup",
  );
  return validateConfig(configDocument(dir, servers), "zero-config");
}

export async function runInit(dirArg: string): Promise<string> {
  const dir = checkDir(dirArg);
  const { chosen: servers, skipped } = await serversFor(dir, await discoverServers(dir));
  if (servers.length === 0) throw noServers(skipped);
  const doc = configDocument(dir, servers);
  validateConfig(doc, "init"); // never print a config that would be refused
  const header = [
    "# bridge.toml generated by `theodolite init` (SPEC §2, §3).",
    "# Commands are absolute paths and versions are the exact output of each server's",
    "# version command on this machine: the bridge refuses to start a server whose",
    "# version no longer matches (ServerVersionMismatch). Check with --check-config.",
    ...skipped.map((why) => `# left out: ${why}`),
    "",
  ].join("\n");
  return `${header}${stringify(doc)}\n`;
}
