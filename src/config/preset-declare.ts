/**
 * What a preset is (SPEC §1, §2.1) and how one is declared: the `[[server]]` keys that differ
 * from the schema's defaults, validated as the module loads, and how discovery finds it.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { z } from "zod";
import { ServerSchema } from "./schema.ts";
import type { ServerConfig } from "./types.ts";

/** What discovery finds on the machine; everything else is in the preset. */
const MACHINE_KEYS = { name: true, command: true, version: true, version_command: true } as const;
export type MachineKeys = keyof typeof MACHINE_KEYS;
const PresetServerSchema = ServerSchema.omit(MACHINE_KEYS);

export interface Preset {
  name: string;
  /** names to look up on PATH, first found wins */
  binaries: string[];
  /** the server's keys, defaults filled in by the schema */
  server: Omit<ServerConfig, MachineKeys>;
  /** argv printing the version when the server binary cannot (e.g. pyright's sibling CLI) */
  versionCommand?: (commandPath: string) => string[] | null;
  /** a binary whose version does not match is not this server (TypeScript 5's `tsc`) */
  versionPattern?: RegExp;
  /** the initialization options pointing it at a TypeScript library (`typescript.tsdk`) */
  typescriptLib?: (lib: string) => Record<string, unknown>;
  /** programs it runs beside itself, whose per-user configuration it reads (SPEC §5.3) */
  runs?: string[];
  /** how discovery treats it beyond finding its binary (SPEC §2.1) */
  discovery?: DiscoveryRules;
  /** not exercised against its real server by this project (docs/LANGUAGE-SERVERS.md) */
  untested?: true;
  description: string;
}

/** What discovery knows of the workspace when it asks a preset's rules. */
export interface WorkspaceFacts {
  /** the file that configures ruff (ruff.toml, .ruff.toml, pyproject.toml's [tool.ruff]) */
  ruffConfig: string | null;
  /** a Cargo.toml in the root itself */
  cargoAtRoot: boolean;
  /** the preset found here that serves a group of alternatives, if any */
  serving: (group: string) => string | undefined;
}

/** A preset's part in discovery, as data and hooks, so that discovery names no server. */
export interface DiscoveryRules {
  /** presets serving the same files with the same roles: the lowest `rank` found serves */
  alternatives?: { group: string; files: string; language: string; rank: number };
  /** TypeScript: `tsserver` drives a tsserver (TypeScript below 7.x); `native` is 7.x's own */
  typescript?: "tsserver" | "native";
  /** a command it runs that must be on PATH, and what to install when it is not */
  needsOnPath?: { command: string; why: string };
  /** the settings pointing it at the root's virtual environment's interpreter */
  venv?: (python: string) => Record<string, unknown>;
  /** a server that joins beside others: why it gives way here, or null when it serves */
  givesWay?: (here: WorkspaceFacts) => string | null;
  /** what in the workspace made it serve, for the reason given, or null */
  chosenFor?: (here: WorkspaceFacts) => string | null;
}

/** A preset as written: its server keys in TOML terms, defaults left out. */
export type PresetDeclaration = Omit<Preset, "server"> & {
  server: Omit<z.input<typeof ServerSchema>, MachineKeys>;
};

/** `line_terminators` where a lone CR is no line break (docs/LANGUAGE-SERVERS.md#the-servers-lines). */
export const LF_LINES = ["lf"] as const;

/** A server of configuration and build files, offering no workspace/symbol (SPEC §9.1). */
export const DATA_FILES = { workspace_symbols: false, data_files: true } as const;

export function preset(declared: PresetDeclaration): Preset {
  return { ...declared, server: PresetServerSchema.parse(declared.server) };
}

const MAX_PACKAGE_DEPTH = 8;

/** The `package.json` of npm package `name` that holds the (real) file `path`, or null. */
function packageJsonOf(path: string, name: string): string | null {
  let dir = dirname(path);
  for (let i = 0; i < MAX_PACKAGE_DEPTH && dirname(dir) !== dir; i++, dir = dirname(dir)) {
    const candidate = join(dir, "package.json");
    try {
      if (existsSync(candidate) && JSON.parse(readFileSync(candidate, "utf8")).name === name) {
        return candidate;
      }
    } catch {
      // not a package.json we can read: keep looking upwards
    }
  }
  return null;
}

/** A binary without a version flag whose sibling CLI prints it: `[sibling, "--version"]`. */
export function siblingVersion(cli: string): (commandPath: string) => string[] | null {
  return (commandPath) => {
    const sibling = join(dirname(commandPath), cli);
    return existsSync(sibling) ? [sibling, "--version"] : null;
  };
}

/** npm servers: `node -p` reads their package's version (`--version` prints none, or is slow). */
export function npmPackageVersion(packageName: string): (commandPath: string) => string[] | null {
  return (commandPath) => {
    let real: string;
    try {
      real = realpathSync(commandPath);
    } catch {
      return null;
    }
    const pkg = packageJsonOf(real, packageName);
    const node = Bun.which("node");
    if (pkg === null || node === null) return null;
    return [node, "-p", `require(${JSON.stringify(pkg)}).version`];
  };
}
