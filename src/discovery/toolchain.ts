/**
 * The workspace's own toolchain (SPEC §2.1), read from disk without running anything: its
 * TypeScript, the bin directories searched before PATH, a virtual environment, ruff's file.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { readTextOutsideWorkspace, readWorkspaceText } from "../workspace/confined.ts";
import { realRoot } from "../workspace/files.ts";

export interface WorkspaceTypescript {
  version: string;
  major: number;
  /** the package directory (…/node_modules/typescript) */
  package: string;
  /** lib/tsserver.js, absent from TypeScript 7 */
  tsserver: string | null;
  /** the package's own tsc launcher */
  tsc: string | null;
}

export interface WorkspaceVenv {
  dir: string;
  python: string;
}

export interface WorkspaceToolchain {
  typescript: WorkspaceTypescript | null;
  venv: WorkspaceVenv | null;
  /** node_modules/.bin of the root and its ancestors that exist, nearest first, then the venv's bin */
  bins: string[];
  /** the file that configures ruff (ruff.toml, .ruff.toml, a pyproject.toml with [tool.ruff]) */
  ruffConfig: string | null;
  /** a Cargo.toml in the root itself (bacon-ls checks only the crate there) */
  cargoAtRoot: boolean;
}

/** The root and every ancestor directory, nearest first (Node's module resolution order). */
function ancestors(root: string): string[] {
  const dirs: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dirname(dir) === dir) return dirs;
  }
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined; // absent, unreadable, or beneath a file
  }
}
/** `path` with every link resolved, or null when it names nothing (or nothing was given). */
export function realOrNull(path: string | undefined): string | null {
  if (path === undefined || path === "") return null;
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

const isFile = (path: string): boolean => statOf(path)?.isFile() ?? false;
const isDir = (path: string): boolean => statOf(path)?.isDirectory() ?? false;

const MAX_PACKAGE_JSON_BYTES = 1 << 20;

/** `version` of a package.json, or null when it cannot be read as one. */
function packageVersion(packageJson: string): string | null {
  try {
    // workspace content, maybe a FIFO or huge: read without blocking, bounded (SPEC §8.1)
    const text = readTextOutsideWorkspace(packageJson, MAX_PACKAGE_JSON_BYTES);
    if (text === undefined) return null;
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === "string" ? parsed.version : null;
  } catch {
    return null;
  }
}

/** The TypeScript package at `pkg` (a directory holding its package.json), or null. */
export function typescriptPackage(pkg: string): WorkspaceTypescript | null {
  const version = packageVersion(join(pkg, "package.json"));
  if (version === null) return null;
  const major = Number.parseInt(version, 10);
  if (!Number.isFinite(major)) return null;
  const tsserver = join(pkg, "lib", "tsserver.js");
  const tsc = join(pkg, "bin", "tsc");
  return {
    version,
    major,
    package: pkg,
    tsserver: isFile(tsserver) ? tsserver : null,
    tsc: isFile(tsc) ? tsc : null,
  };
}

/** The nearest `node_modules/typescript` with a readable version, as Node would resolve it. */
export function workspaceTypescript(root: string): WorkspaceTypescript | null {
  for (const dir of ancestors(root)) {
    const found = typescriptPackage(join(dir, "node_modules", "typescript"));
    if (found !== null) return found;
  }
  return null;
}

/** `.venv` or `venv` at the root holding a `bin/python` (what `python -m venv` makes). */
export function workspaceVenv(root: string): WorkspaceVenv | null {
  for (const name of [".venv", "venv"]) {
    const dir = join(root, name);
    for (const exe of ["python", "python3"]) {
      const python = join(dir, "bin", exe);
      if (existsSync(python)) return { dir, python };
    }
  }
  return null;
}

const RUFF_SECTION = /^\s*\[tool\.ruff[\].]/m;

/** A file at the root as text, read beneath it and bounded (SPEC §8.1); "" when unreadable. */
export function rootText(root: string, name: string, max = MAX_PACKAGE_JSON_BYTES): string {
  try {
    return readWorkspaceText(realRoot(root), name, max).text;
  } catch {
    return "";
  }
}

/** The root's ruff configuration file, if any. */
export function workspaceRuffConfig(root: string): string | null {
  for (const name of ["ruff.toml", ".ruff.toml"]) {
    if (isFile(join(root, name))) return join(root, name);
  }
  return RUFF_SECTION.test(rootText(root, "pyproject.toml")) ? join(root, "pyproject.toml") : null;
}

/** The TypeScript library (`typescript.tsdk`) Node would resolve from `dir`, below 7.x. */
export function typescriptLibFrom(dir: string): string | null {
  const ts = workspaceTypescript(dir);
  if (ts === null || ts.major >= 7) return null;
  const lib = join(ts.package, "lib");
  return isFile(join(lib, "typescript.js")) ? lib : null;
}

export function workspaceToolchain(root: string): WorkspaceToolchain {
  const venv = workspaceVenv(root);
  const nodeBins = ancestors(root).map((dir) => join(dir, "node_modules", ".bin"));
  return {
    typescript: workspaceTypescript(root),
    venv,
    bins: [...nodeBins.filter(isDir), ...(venv === null ? [] : [join(venv.dir, "bin")])],
    ruffConfig: workspaceRuffConfig(root),
    cargoAtRoot: isFile(join(root, "Cargo.toml")),
  };
}
