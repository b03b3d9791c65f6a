/**
 * tsconfig.json and jsconfig.json as tsserver reads them, pure (SPEC §3.3 `project_files`,
 * §4.3 `outside_program`): which files a project holds — `files`, `include`, `exclude`
 * (by default its `outDir`), JavaScript only with `allowJs` or in a jsconfig.json — with
 * `extends` followed (paths, and packages under `node_modules`) and `${configDir}`; and
 * which project holds a file: the nearest project file in its directory or above (up to
 * the root, not past a `node_modules`), its references, then the ones further up, as
 * tsserver looks. Files an included file imports also join tsserver's program; that is not
 * followed. Workspace content: lists, patterns and chains are bounded, and a malformed
 * project file includes everything below it.
 */
import { posix } from "node:path";
import { type Budget, pathMatches, specSegments } from "./spec-match.ts";

/** The names of project files, in the order tsserver looks for them in one directory. */
export const PROJECT_FILES = ["tsconfig.json", "jsconfig.json"] as const;

export interface ProjectSpec {
  /** workspace-relative path of the project file */
  file: string;
  /** its directory ("" for the root) */
  dir: string;
  /** `files`, workspace-relative; null when absent */
  files: string[] | null;
  /** `include` patterns as segments (the default `**\/*` when neither key is there) */
  include: string[][];
  exclude: string[][];
  /** .js and .jsx files belong to it (jsconfig.json, or compilerOptions.allowJs) */
  allowJs: boolean;
  /** referenced project files, workspace-relative */
  references: string[];
  /** false with compilerOptions.disableSolutionSearching: no project above is looked at */
  searchAbove: boolean;
}

/** A project file's text, workspace-relative; undefined when there is none. */
export type ReadText = (rel: string) => string | undefined;

const MAX_ENTRIES = 256;
const MAX_PATTERN_CHARS = 1024;
/** Project files one `extends` chain may name, in all. */
const MAX_LAYERS = 16;

/** tsconfig's template for the directory of the project file being read. */
export const CONFIG_DIR = ["$", "{configDir}"].join("");

const TS_FILE = /\.(?:[cm]?ts|tsx)$/;
const JS_FILE = /\.(?:[cm]?js|jsx)$/;

/** Past the JSON string that starts at `i` (its closing quote, or the end). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
  return j + 1;
}

/** JSON with comments and trailing commas → JSON: comments go, then trailing commas; strings are kept. */
export function stripJsonComments(text: string): string {
  let plain = "";
  let from = 0;
  for (let i = 0; i < text.length; ) {
    if (text[i] === '"') i = stringEnd(text, i);
    else if (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      plain += text.slice(from, i);
      const line = text[i + 1] === "/";
      const end = line ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : line ? end : end + 2;
      plain += " ";
      from = i;
    } else i++;
  }
  plain += text.slice(from);
  let out = "";
  from = 0;
  for (let i = 0; i < plain.length; ) {
    if (plain[i] === '"') {
      i = stringEnd(plain, i);
      continue;
    }
    if (plain[i] === ",") {
      let j = i + 1;
      while (j < plain.length && /\s/.test(plain[j] as string)) j++;
      if (plain[j] === "}" || plain[j] === "]") {
        out += plain.slice(from, i);
        from = i + 1;
      }
      // the white space is not looked at again
      i = j;
      continue;
    }
    i++;
  }
  return out + plain.slice(from);
}

/** A JSON-with-comments object; anything else (malformed, not an object) is `{}`. */
export function parseJsonObject(text: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(stripJsonComments(text ?? "{}"));
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // malformed: as if empty
  }
  return {};
}

export function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value
    .slice(0, MAX_ENTRIES)
    .filter((v): v is string => typeof v === "string" && v.length <= MAX_PATTERN_CHARS);
}

/** One project file of an `extends` chain: its directory and what it says. */
interface Layer {
  dir: string;
  doc: Record<string, unknown>;
  options: Record<string, unknown>;
}

/** The directory above `dir` ("" for the root). */
function parentDir(dir: string): string {
  const up = posix.dirname(dir);
  return up === "." ? "" : up;
}

/** Where an `extends` entry of a project file in `dir` points, as tsserver resolves it. */
function extendsTarget(dir: string, entry: string, read: ReadText): string | undefined {
  const inRoot = (p: string) => (p.startsWith("../") || p === ".." ? undefined : p);
  if (entry.startsWith("./") || entry.startsWith("../")) {
    const path = inRoot(posix.normalize(posix.join(dir || ".", entry)));
    if (path === undefined) return undefined;
    return read(path) !== undefined || path.endsWith(".json") ? path : `${path}.json`;
  }
  if (entry.startsWith("/")) return undefined;
  // a package: node_modules of this directory or one above, within the root
  for (let d = dir; ; d = parentDir(d)) {
    const base = posix.join(d || ".", "node_modules", entry);
    for (const path of [base, `${base}.json`, posix.join(base, "tsconfig.json")]) {
      const p = inRoot(posix.normalize(path));
      if (p?.endsWith(".json") && read(p) !== undefined) return p;
    }
    if (d === "") return undefined;
  }
}

/** The file and the files it extends, the ones that win first (the file, then its last base). */
function layers(file: string, text: string | undefined, read: ReadText): Layer[] {
  const out: Layer[] = [];
  const seen = new Set<string>();
  const visit = (path: string, body: string | undefined) => {
    if (out.length >= MAX_LAYERS || seen.has(path)) return;
    seen.add(path);
    const doc = parseJsonObject(body);
    const options = doc.compilerOptions;
    const dir = parentDir(path);
    const object = typeof options === "object" && options !== null && !Array.isArray(options);
    out.push({ dir, doc, options: object ? (options as Record<string, unknown>) : {} });
    const bases = typeof doc.extends === "string" ? [doc.extends] : (stringList(doc.extends) ?? []);
    for (const entry of bases.reverse()) {
      const target = extendsTarget(dir, entry, read);
      if (target !== undefined) visit(target, read(target));
    }
  };
  visit(file, text);
  return out;
}

/** A project file (tsconfig.json-shaped) with what it extends; read by `read`, workspace-relative. */
export function parseProject(
  file: string,
  text: string | undefined,
  read: ReadText = () => undefined,
): ProjectSpec {
  const chain = layers(file, text, read);
  const own = chain[0] as Layer;
  const key = (name: string) => {
    const layer = chain.find((l) => Array.isArray(l.doc[name]));
    return layer && { dir: layer.dir, list: stringList(layer.doc[name]) ?? [] };
  };
  const option = (name: string) => chain.find((l) => l.options[name] !== undefined);
  // CONFIG_DIR stands for the directory of the file being read, whoever wrote it
  const resolve = (dir: string, spec: string, dirGlob: boolean) =>
    spec.startsWith(CONFIG_DIR)
      ? specSegments(own.dir, `.${spec.slice(CONFIG_DIR.length)}`, dirGlob)
      : specSegments(dir, spec, dirGlob);
  const patterns = (specs: { dir: string; list: string[] }) =>
    specs.list
      .map((s) => resolve(specs.dir, s, true))
      .filter((s): s is string[] => s !== null && s[s.length - 1] !== "**");
  const files = key("files");
  const include = key("include") ?? (files ? undefined : { dir: own.dir, list: ["**/*"] });
  // no `exclude`: the output directories are left out
  const exclude = key("exclude") ?? {
    dir: "",
    list: ["outDir", "declarationDir"].flatMap((name) => {
      const layer = option(name);
      const value = layer?.options[name];
      if (typeof value !== "string" || value.startsWith("/")) return [];
      return [posix.join(layer?.dir || ".", value)];
    }),
  };
  const allowJs = option("allowJs")?.options.allowJs;
  const references = (Array.isArray(own.doc.references) ? own.doc.references : [])
    .slice(0, MAX_ENTRIES)
    .flatMap((r: unknown) => {
      const path = (r as { path?: unknown } | null)?.path;
      const at = typeof path === "string" ? resolve(own.dir, path, false) : null;
      if (at === null) return [];
      const joined = at.join("/");
      return [joined.endsWith(".json") ? joined : posix.join(joined || ".", "tsconfig.json")];
    });
  return {
    file,
    dir: own.dir,
    files: files
      ? files.list.map((f) => resolve(files.dir, f, false)?.join("/") ?? "").filter((f) => f !== "")
      : null,
    include: include ? patterns(include) : [],
    exclude: patterns(exclude),
    allowJs: allowJs === undefined ? posix.basename(file) === "jsconfig.json" : allowJs === true,
    references,
    searchAbove: option("disableSolutionSearching")?.options.disableSolutionSearching !== true,
  };
}

/** Is this a file the project's compiler takes (TypeScript; JavaScript with allowJs)? */
export function projectLanguage(spec: Pick<ProjectSpec, "allowJs">, rel: string): boolean {
  return TS_FILE.test(rel) || (spec.allowJs && JS_FILE.test(rel));
}

/** Does the project include this workspace-relative file? Once the budget is spent: yes. */
export function projectIncludes(spec: ProjectSpec, rel: string, budget: Budget): boolean {
  if (spec.files?.includes(rel)) return true;
  if (!projectLanguage(spec, rel)) return false;
  const segments = rel.split("/");
  const included = spec.include.some((p) => pathMatches(p, segments, budget, "files"));
  const excluded = included && spec.exclude.some((p) => pathMatches(p, segments, budget, "prefix"));
  return budget.left < 0 || (included && !excluded);
}

/** Which project holds a file: the project file that includes it, and those looked at. */
export interface ProjectSearch {
  /** null: the file is in no project (tsserver's inferred project) */
  owner: string | null;
  /** the project files looked at that do not include it, in the order looked at */
  passed: string[];
}

/** Project files one search may look at (references included). */
const MAX_SEARCHED = 64;

/**
 * The project that holds `rel`, as tsserver finds it for an open file: in each directory
 * from the file's up to the root, tsconfig.json then jsconfig.json; each with its
 * references (and theirs), until one includes the file. `load` gives a project file's
 * spec, or null when there is no such file.
 */
export function projectOwner(
  rel: string,
  load: (file: string) => ProjectSpec | null,
  budget: Budget,
): ProjectSearch {
  const passed: string[] = [];
  const seen = new Set<string>();
  const holds = (spec: ProjectSpec): string | null => {
    if (projectIncludes(spec, rel, budget)) return spec.file;
    passed.push(spec.file);
    for (const ref of spec.references) {
      if (seen.has(ref) || seen.size >= MAX_SEARCHED) continue;
      seen.add(ref);
      const child = load(ref);
      const found = child && holds(child);
      if (found) return found;
    }
    return null;
  };
  for (let dir = posix.dirname(rel); ; dir = posix.dirname(dir)) {
    const at = dir === "." ? "" : dir;
    for (const name of PROJECT_FILES) {
      const file = at === "" ? name : `${at}/${name}`;
      if (seen.has(file) || seen.size >= MAX_SEARCHED) continue;
      seen.add(file);
      const spec = load(file);
      if (spec === null) continue;
      const owner = holds(spec);
      if (owner !== null) return { owner, passed };
      if (!spec.searchAbove) return { owner: null, passed };
    }
    if (at === "" || posix.basename(at) === "node_modules") return { owner: null, passed };
  }
}
