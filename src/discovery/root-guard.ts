/**
 * What zero-config refuses to serve (SPEC §2.1): the root, home and temp directories, and a
 * directory with neither a project marker nor a source file near the top. `refusal`
 * decides, pure; `lookAtTop` reads what it needs, bounded.
 */
import { type Dirent, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { PRESETS } from "../config/presets.ts";
import { extensionsOf } from "./files-served.ts";
import { skippedByName } from "./ignore.ts";
import { realOrNull } from "./toolchain.ts";

/** Names that say a directory is a project's root (files or directories). */
export const PROJECT_MARKERS: ReadonlySet<string> = new Set([
  ...[".git", ".hg", ".svn", "bridge.toml"],
  ...["package.json", "tsconfig.json", "jsconfig.json", "deno.json"],
  ...["Cargo.toml", "go.mod", "go.work"],
  ...["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"],
  ...["Pipfile", "pyrightconfig.json"],
  ...["compile_commands.json", "compile_flags.txt", "CMakeLists.txt"],
  ...["meson.build", "Makefile", "configure.ac"],
  ...[".luarc.json", ".emmyrc.json"],
]);

/** Entries looked at in the root, and in each of the first subdirectories. */
const TOP_ENTRIES = 2000;
const SUBDIR_ENTRIES = 500;
const SUBDIRS = 100;

/** What lies near the top of a directory. */
export interface Top {
  markers: string[];
  /** files of an extension some preset serves */
  sources: number;
}

/** The places the bridge may be started in by mistake, as real paths. */
export interface Places {
  home: string | null;
  temp: string[];
}

export interface Refusal {
  reason: string;
  hint: string;
}

export const REFUSAL_HINT =
  "start theodolite in the project's directory (give the MCP client's server entry that " +
  "working directory), or pass --config with a bridge.toml naming the workspace root " +
  "(`theodolite init DIR` writes one)";

/** Why `root` is not served, or null when it is. */
export function refusal(root: string, places: Places, top: () => Top): Refusal | null {
  const refuse = (reason: string) => ({ reason, hint: REFUSAL_HINT });
  if (root === "/") return refuse("it is the file system's root");
  if (places.home !== null && root === places.home) return refuse("it is the home directory");
  if (places.temp.includes(root)) return refuse("it is the system's temp directory");
  const { markers, sources } = top();
  if (markers.length === 0 && sources === 0) {
    return refuse(
      "it has no project marker (package.json, go.mod, Cargo.toml, pyproject.toml, .git, …) " +
        "and no source file a language server reads, in it or one level below",
    );
  }
  return null;
}

function list(dir: string, max: number): Dirent[] {
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return entries.slice(0, max);
  } catch {
    return [];
  }
}

/** Markers and source files in `root` and its first subdirectories; links are not followed. */
export function lookAtTop(root: string): Top {
  const served = new Set(PRESETS.flatMap(extensionsOf));
  const markers: string[] = [];
  let sources = 0;
  const look = (entries: Dirent[]): Dirent[] => {
    const dirs: Dirent[] = [];
    for (const e of entries) {
      if (PROJECT_MARKERS.has(e.name)) markers.push(e.name);
      else if (e.isFile() && served.has(extname(e.name).slice(1))) sources += 1;
      else if (e.isDirectory() && !skippedByName(e.name)) dirs.push(e);
    }
    return dirs;
  };
  const subdirs = look(list(root, TOP_ENTRIES)).slice(0, SUBDIRS);
  for (const d of subdirs) look(list(join(root, d.name), SUBDIR_ENTRIES));
  return { markers, sources };
}

/** The home and temp directories of this process, as real paths. */
export function placesOf(env: NodeJS.ProcessEnv): Places {
  const temp = [tmpdir(), "/tmp", "/var/tmp"].map(realOrNull).filter((p) => p !== null);
  return { home: realOrNull(env.HOME), temp: [...new Set(temp)] };
}
