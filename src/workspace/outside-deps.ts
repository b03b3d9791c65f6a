/**
 * Files and directories outside the workspace root that its configuration points at
 * (SPEC §5.3 "dependencies outside the root"), found where the bridge can name them: a
 * compile database's include directories and forced includes, tsconfig `extends` and
 * project references, pyright's `extends` and `extraPaths`, go.mod `replace` and go.work
 * `use` directories, Cargo path dependencies, and cargo's configuration in the root's
 * ancestors. Pure: the caller reads the files (`read`, root-relative) and resolves the
 * paths found; system directories (`/usr`, `/lib`, …) are the host's, not dependencies.
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { atOrBelow } from "./paths.ts";

export interface OutsideDependency {
  /** absolute, lexically normalized (the caller takes the realpath) */
  path: string;
  /** a single file, a directory with everything below it, or a directory's own entries */
  kind: "file" | "tree" | "entries";
  /** which configuration named it, for answers and session_status */
  source: string;
  /**
   * the path as named, when it reached `path` through a link (a link inside the root):
   * where it leads is watched, not only where it led (outside-lookups.ts)
   */
  via?: string;
  /** `entries` only: the names whose changes count (else every entry's) */
  names?: RegExp;
  /** a path to nothing yet, watched where it would appear: found again when it does */
  awaits?: string;
  /**
   * named by the server itself (a watcher it registered: its interpreter's library), not
   * by a file of the workspace: what lies there is not read for paths it names in turn
   */
  ownRead?: true;
}

/** Host directories: what the system's packages own is no workspace dependency. */
const SYSTEM = ["/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev"];

/** Whether `abs` lies in the host's system directories. */
export function isSystemPath(abs: string): boolean {
  return SYSTEM.some((s) => atOrBelow(s, abs));
}

/** Dependencies watched at most (a compile database can name hundreds of include dirs); the rest are named. */
export const MAX_OUTSIDE_DEPENDENCIES = 64;

type Read = (rel: string) => string | undefined;

/**
 * Every dependency outside `rootReal` the configuration files in it name, and those inside
 * it that lie where the root's watcher never looks (`unwatchedInside`: a CACHEDIR.TAG
 * build directory named by `-I`), each path once; the caller bounds how many it watches
 * and names the rest (MAX_OUTSIDE_DEPENDENCIES).
 */
export function outsideDependencies(
  rootReal: string,
  read: Read,
  /** directories (root-relative) holding compile_commands.json besides the root */
  databaseDirs: readonly string[] = [],
  /** whether a file outside the root exists (cargo's configuration above the root) */
  exists: (abs: string) => boolean = () => false,
  unwatchedInside: (abs: string) => boolean = () => false,
  /** dependencies found some other way (outside-survey.ts), judged and bounded alike */
  more: readonly OutsideDependency[] = [],
): OutsideDependency[] {
  const found: OutsideDependency[] = [];
  for (const dir of ["", ...databaseDirs]) {
    const rel = dir === "" ? "compile_commands.json" : join(dir, "compile_commands.json");
    found.push(...fromCompileDatabase(read(rel)));
  }
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    found.push(...fromTsconfig(rootReal, name, read(name)));
  }
  found.push(...fromPyright(rootReal, read("pyrightconfig.json"), read("pyproject.toml")));
  found.push(...fromGo(rootReal, read("go.mod"), read("go.work")));
  found.push(...fromCargo(rootReal, read("Cargo.toml"), exists));
  found.push(...more);
  const kept: OutsideDependency[] = [];
  for (const d of found) {
    const path = resolve(d.path);
    if (atOrBelow(rootReal, path) && !unwatchedInside(path)) continue;
    if (!isSystemPath(path)) kept.push({ ...d, path });
  }
  return byPath(kept);
}

/**
 * One dependency for two named at the same path: a directory found there, whole, over its
 * entries awaiting a path below (`paths` naming `../lib/v2/*`, not there yet, and
 * `../lib/*`); two entries' names together; else the first named stands (a tree guessed
 * for a module not there yet is no reason to watch a home directory whole, nor is another
 * naming a server's own directory a reason to read it for paths).
 */
export function covering(a: OutsideDependency, b: OutsideDependency): OutsideDependency {
  const found = (d: OutsideDependency) => d.kind === "tree" && d.awaits === undefined;
  if (a.kind === "entries" && found(b)) return a.awaits ? { ...b, awaits: a.awaits } : b;
  if (found(a) && b.kind === "entries")
    return b.awaits && !a.awaits ? { ...a, awaits: b.awaits } : a;
  if (a.kind !== "entries" || b.kind !== "entries" || a.names === undefined) return a;
  if (b.names === undefined) {
    const { names: _, ...every } = a;
    return every;
  }
  if (b.names.source === a.names.source) return a;
  return { ...a, names: new RegExp(`(?:${a.names.source})|(?:${b.names.source})`) };
}

/**
 * The dependencies only some owners read (their own: a server's registered watchers, its
 * programs' configuration), and whose they are; one `everyone` names too is everyone's.
 */
export function ownersOf<S extends { own: readonly OutsideDependency[] }>(
  everyone: readonly OutsideDependency[],
  owners: Iterable<S>,
): Map<string, Set<S>> {
  const common = new Set(everyone.map((d) => d.path));
  const out = new Map<string, Set<S>>();
  for (const s of owners) {
    for (const d of s.own) {
      if (common.has(d.path)) continue;
      const set = out.get(d.path) ?? new Set<S>();
      set.add(s);
      out.set(d.path, set);
    }
  }
  return out;
}

/** Each path once, covering every dependency named there, in the order first named. */
export function byPath(deps: readonly OutsideDependency[]): OutsideDependency[] {
  const out = new Map<string, OutsideDependency>();
  for (const d of deps) {
    const before = out.get(d.path);
    out.set(d.path, before === undefined ? d : covering(before, d));
  }
  return [...out.values()];
}

/** What a watch of `d` sees: two dependencies of one path with the same reach share a watch. */
export function reachOf(d: OutsideDependency): string {
  return `${d.kind} ${d.names?.source ?? ""} ${d.ownRead ? "own" : ""}`;
}

/** The ancestors' cargo configuration a crate at `rootReal` is built with (cargo reads them). */
function cargoConfigsAbove(rootReal: string, exists: (abs: string) => boolean): string[] {
  const out: string[] = [];
  for (let d = dirname(rootReal); d !== dirname(d); d = dirname(d)) {
    for (const name of ["config.toml", "config"]) {
      const path = join(d, ".cargo", name);
      if (exists(path)) out.push(path);
    }
  }
  return out;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(withoutComments(text));
  } catch {
    return undefined;
  }
}

/** JSON with `//` and `/* *\/` comments and trailing commas (tsconfig's dialect), as JSON. */
export function withoutComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else {
      out += c;
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

function strings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Words of a shell command line: quotes kept together, backslash escapes honoured. */
function words(command: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote: string | null = null;
  let any = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') cur += command[++i] ?? "";
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (c === "\\") {
      cur += command[++i] ?? "";
      any = true;
    } else if (/\s/.test(c)) {
      if (any || cur !== "") out.push(cur);
      cur = "";
      any = false;
    } else {
      cur += c;
    }
  }
  if (any || cur !== "") out.push(cur);
  return out;
}

const INCLUDE_DIR_FLAGS = ["-I", "-isystem", "-iquote", "-idirafter", "--include-directory="];
const INCLUDE_FILE_FLAGS = ["-include", "-imacros"];

function fromCompileDatabase(text: string | undefined): OutsideDependency[] {
  const entries = parseJson(text);
  if (!Array.isArray(entries)) return [];
  const out: OutsideDependency[] = [];
  for (const e of entries as Record<string, unknown>[]) {
    if (typeof e?.directory !== "string") continue;
    const dir = e.directory;
    const args =
      Array.isArray(e.arguments) && e.arguments.every((a) => typeof a === "string")
        ? (e.arguments as string[])
        : typeof e.command === "string"
          ? words(e.command)
          : [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      const flag = [...INCLUDE_DIR_FLAGS, ...INCLUDE_FILE_FLAGS].find((f) => a.startsWith(f));
      if (flag === undefined) continue;
      const value = a.length > flag.length ? a.slice(flag.length) : args[++i];
      if (value === undefined || value === "") continue;
      const kind = INCLUDE_FILE_FLAGS.includes(flag) ? "file" : "tree";
      out.push({ path: resolve(dir, value), kind, source: `compile_commands.json ${flag}` });
    }
  }
  return out;
}

function fromTsconfig(rootReal: string, name: string, text: string | undefined) {
  const config = parseJson(text) as Record<string, unknown> | undefined;
  if (typeof config !== "object" || config === null) return [];
  const out: OutsideDependency[] = [];
  for (const ext of strings(config.extends)) {
    // a package name resolves in node_modules (the package-level rule); a path is a file
    if (!ext.startsWith(".") && !isAbsolute(ext)) continue;
    const path = resolve(rootReal, ext);
    out.push({
      path: path.endsWith(".json") ? path : `${path}.json`,
      kind: "file",
      source: `${name} extends`,
    });
  }
  const refs = Array.isArray(config.references) ? config.references : [];
  for (const r of refs as { path?: unknown }[]) {
    if (typeof r?.path === "string") {
      out.push({ path: resolve(rootReal, r.path), kind: "tree", source: `${name} references` });
    }
  }
  return out;
}

function fromPyright(rootReal: string, json: string | undefined, pyproject: string | undefined) {
  const out: OutsideDependency[] = [];
  const add = (config: Record<string, unknown> | undefined, source: string) => {
    if (typeof config !== "object" || config === null) return;
    for (const ext of strings(config.extends)) {
      out.push({ path: resolve(rootReal, ext), kind: "file", source: `${source} extends` });
    }
    for (const p of strings(config.extraPaths)) {
      out.push({ path: resolve(rootReal, p), kind: "tree", source: `${source} extraPaths` });
    }
  };
  add(parseJson(json) as Record<string, unknown> | undefined, "pyrightconfig.json");
  try {
    const toml = pyproject === undefined ? undefined : parseToml(pyproject);
    const tool = (toml?.tool as Record<string, unknown> | undefined)?.pyright;
    add(tool as Record<string, unknown> | undefined, "pyproject.toml [tool.pyright]");
  } catch {
    // not TOML: nothing it names
  }
  return out;
}

function fromGo(rootReal: string, mod: string | undefined, work: string | undefined) {
  const out: OutsideDependency[] = [];
  // `replace m => ../local` (a local path starts with ./ or ../ or /), alone or in a block
  for (const m of (mod ?? "").matchAll(/=>\s*((?:\.\.?\/|\/)[^\s)]*)/g)) {
    out.push({ path: resolve(rootReal, m[1] as string), kind: "tree", source: "go.mod replace" });
  }
  const uses = /^\s*use\s*\(([^)]*)\)|^\s*use\s+(\S+)/gm;
  for (const m of (work ?? "").matchAll(uses)) {
    for (const p of (m[1] ?? m[2] ?? "").split(/\s+/).filter((x) => x !== "")) {
      out.push({ path: resolve(rootReal, p), kind: "tree", source: "go.work use" });
    }
  }
  return out;
}

function fromCargo(rootReal: string, text: string | undefined, exists: (abs: string) => boolean) {
  if (text === undefined) return [];
  let toml: Record<string, unknown>;
  try {
    toml = parseToml(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const out: OutsideDependency[] = [];
  const tables = [
    toml.dependencies,
    toml["dev-dependencies"],
    toml["build-dependencies"],
    (toml.workspace as Record<string, unknown> | undefined)?.dependencies,
  ];
  for (const t of tables) {
    if (typeof t !== "object" || t === null) continue;
    for (const dep of Object.values(t as Record<string, unknown>)) {
      const p = (dep as { path?: unknown })?.path;
      if (typeof p === "string") {
        out.push({
          path: resolve(rootReal, p),
          kind: "tree",
          source: "Cargo.toml path dependency",
        });
      }
    }
  }
  if (toml.package !== undefined || toml.workspace !== undefined) {
    for (const path of cargoConfigsAbove(rootReal, exists)) {
      out.push({ path, kind: "file", source: "cargo configuration above the root" });
    }
  }
  return out;
}
