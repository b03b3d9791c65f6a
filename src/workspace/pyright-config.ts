/**
 * Which files pyright (and basedpyright) take into their program (SPEC §4.3
 * `outside_program`), pure: the root's pyrightconfig.json, else pyproject.toml's
 * `[tool.pyright]` (with `extends` followed), gives `include` (by default the root) and
 * `exclude`, to which pyright always adds its default excludes; the directories of virtual
 * environments are left out too. A spec matches a path and everything below it, `**` any
 * number of segments, `*` and `?` within one, dot names included. Workspace content:
 * lists are bounded, and matching spends from a budget (spent: the file counts as in).
 */
import { posix } from "node:path";
import { parse as parseToml } from "smol-toml";
import { type Budget, pathMatches, specSegments } from "./spec-match.ts";
import { parseJsonObject, type ReadText, stringList } from "./tsconfig.ts";

/** The excludes pyright adds to every configuration (1.1.414: `defaultExcludes`). */
export const DEFAULT_EXCLUDES = ["**/node_modules", "**/__pycache__", "**/.*", "**/__editable__.*"];

/** A directory holding one of these is a virtual environment, which pyright leaves out. */
export const VENV_MARKERS = ["bin/activate", "Scripts/activate", "pyvenv.cfg", "conda-meta"];

const PYTHON_FILE = /\.pyi?$/;
const MAX_CHAIN = 8;

interface Spec {
  spec: string;
  segments: string[];
}

export interface PythonProgram {
  /** the configuration file read (workspace-relative), null for none */
  source: string | null;
  include: Spec[];
  exclude: Spec[];
}

/** `[tool.pyright]` of a pyproject.toml, undefined without one. */
function pyprojectSection(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const tool = parseToml(text).tool as Record<string, unknown> | undefined;
    const section = tool?.pyright;
    return typeof section === "object" && section !== null && !Array.isArray(section)
      ? (section as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A configuration file's settings: JSON with comments, or a pyproject.toml's section. */
function settingsOf(file: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  return file.endsWith(".toml") ? pyprojectSection(text) : parseJsonObject(text);
}

/** The program's specs from the root's configuration; `read` gives a workspace file's text. */
export function pythonProgram(read: ReadText): PythonProgram {
  let file: string | null = "pyrightconfig.json";
  let settings = settingsOf(file, read(file));
  if (settings === undefined) {
    file = "pyproject.toml";
    settings = settingsOf(file, read(file));
  }
  const source = settings === undefined ? null : file;
  let include: Spec[] | undefined;
  let exclude: Spec[] | undefined;
  const seen = new Set<string>();
  // the file first, then what it extends: the first to set a key wins
  for (let at = source, depth = 0; at !== null && settings && depth < MAX_CHAIN; depth++) {
    seen.add(at);
    const dir = posix.dirname(at) === "." ? "" : posix.dirname(at);
    const specs = (key: string) =>
      stringList(settings?.[key])?.flatMap((spec) => {
        const segments = specSegments(dir, spec, false);
        return segments === null ? [] : [{ spec, segments }];
      });
    include ??= specs("include");
    exclude ??= specs("exclude");
    const base = typeof settings.extends === "string" ? settings.extends : undefined;
    const next = base === undefined ? null : posix.normalize(posix.join(dir || ".", base));
    if (next === null || next.startsWith("../") || seen.has(next)) break;
    at = next;
    settings = settingsOf(next, read(next));
  }
  const defaults = DEFAULT_EXCLUDES.map((spec) => ({ spec, segments: spec.split("/") }));
  return {
    source,
    include: include && include.length > 0 ? include : [{ spec: ".", segments: [] }],
    exclude: [
      ...(exclude ?? []),
      ...defaults.filter((d) => !exclude?.some((e) => e.spec === d.spec)),
    ],
  };
}

/**
 * Why pyright leaves `rel` out of its program, or null when it takes it in (or when it is
 * no Python file, or the budget ran out). `isVenv` says whether a workspace directory
 * holds a virtual environment.
 */
export function pythonExclusion(
  program: PythonProgram,
  rel: string,
  isVenv: (dir: string) => boolean,
  budget: Budget,
): string | null {
  if (!PYTHON_FILE.test(rel)) return null;
  const segments = rel.split("/");
  const where = program.source ?? "the default configuration";
  if (!program.include.some((s) => pathMatches(s.segments, segments, budget, "prefix"))) {
    if (budget.left < 0) return null;
    const list = program.include.map((s) => JSON.stringify(s.spec)).join(", ");
    return `not under ${where}'s include (${list})`;
  }
  const hit = program.exclude.find((s) => pathMatches(s.segments, segments, budget, "prefix"));
  if (budget.left < 0) return null;
  if (hit !== undefined) {
    const own = !DEFAULT_EXCLUDES.includes(hit.spec);
    return own
      ? `excluded by ${where}'s exclude ${JSON.stringify(hit.spec)}`
      : `excluded by the server's default exclude ${JSON.stringify(hit.spec)}`;
  }
  for (let i = 1; i < segments.length; i++) {
    const dir = segments.slice(0, i).join("/");
    if (isVenv(dir)) return `inside a virtual environment (${dir}), which is left out`;
  }
  return null;
}
