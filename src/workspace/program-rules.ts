/**
 * Whether a file lies outside the whole program its server answers about (SPEC §4.3
 * `outside_program`), and why, pure: by the server's `program` key — `tsconfig` (a
 * tsconfig.json or jsconfig.json includes it, tsconfig.ts), `compile_commands` (the
 * compile database names it; headers take a neighbour's flags and are never marked),
 * `pyrightconfig` (include, exclude and the virtual environments, pyright-config.ts). The
 * caller reads the configuration; every answer about such a file may miss what the server
 * does not see.
 */
import { extname } from "node:path";
import type { ServerConfig } from "../config/types.ts";
import { type PythonProgram, pythonExclusion } from "./pyright-config.ts";
import type { Budget } from "./spec-match.ts";
import { PROJECT_FILES, type ProjectSpec, projectLanguage, projectOwner } from "./tsconfig.ts";

/** The server's `program` key (SPEC §3). */
export type ProgramFormat = NonNullable<ServerConfig["program"]>;

/** A file outside the program, and why (SPEC §4.3). */
export interface OutsideProgram {
  /** workspace-relative */
  file: string;
  reason: string;
}

/** What a decision needs, read by the caller (once per question or cached). */
export interface ProgramInputs {
  /** tsconfig: a project file's spec, null when there is no such file */
  project(file: string): ProjectSpec | null;
  /** compile_commands: the database's workspace-relative name and files; null: none readable */
  database(): { name: string; files: ReadonlySet<string> } | null;
  /** the absolute paths a workspace-relative file may be named by in a database */
  spellings(rel: string): string[];
  /** pyrightconfig: the program's specs */
  python(): PythonProgram;
  /** pyrightconfig: whether a workspace directory holds a virtual environment */
  isVenv(dir: string): boolean;
}

/** Translation units a compile database names; anything else is a header. */
const SOURCE_EXTENSIONS = new Set([
  ".c",
  ".C",
  ".cc",
  ".cp",
  ".cpp",
  ".cxx",
  ".c++",
  ".m",
  ".mm",
  ".cu",
  ".cppm",
  ".ixx",
]);

const TS_CONSEQUENCE =
  "the server sees only this file and what it imports: references, callers and symbols in other files may be missing";

function tsconfigReason(rel: string, inputs: ProgramInputs, budget: Budget): string | null {
  const search = projectOwner(rel, (f) => inputs.project(f), budget);
  if (search.owner !== null) return null;
  if (search.passed.length === 0) {
    return `in no project (no ${PROJECT_FILES.join(" or ")} in its directory or above): ${TS_CONSEQUENCE}`;
  }
  const specs = search.passed.map((f) => inputs.project(f));
  // a JavaScript file a project would take with allowJs
  const js = !projectLanguage({ allowJs: false }, rel) && projectLanguage({ allowJs: true }, rel);
  const allowJs =
    js && specs.every((s) => s !== null && !s.allowJs) ? "; JavaScript needs allowJs" : "";
  const names = search.passed.slice(0, 4).join(", ") + (search.passed.length > 4 ? ", …" : "");
  return `in no project (${names} ${search.passed.length > 1 ? "do" : "does"} not include it${allowJs}): ${TS_CONSEQUENCE}`;
}

function compileDatabaseReason(rel: string, inputs: ProgramInputs): string | null {
  if (!SOURCE_EXTENSIONS.has(extname(rel))) return null;
  const db = inputs.database();
  if (db === null || inputs.spellings(rel).some((abs) => db.files.has(abs))) return null;
  return (
    `not in ${db.name}: the server guesses its compile flags, so its answers may differ ` +
    "from the build's, and other files' answers include it only while it is open"
  );
}

/** Why `rel` lies outside the program, or null when it is inside or the bridge cannot tell. */
export function outsideReason(
  format: ProgramFormat,
  rel: string,
  inputs: ProgramInputs,
  budget: Budget,
): string | null {
  switch (format) {
    case "tsconfig":
      return tsconfigReason(rel, inputs, budget);
    case "compile_commands":
      return compileDatabaseReason(rel, inputs);
    case "pyrightconfig": {
      const why = pythonExclusion(inputs.python(), rel, (d) => inputs.isVenv(d), budget);
      return why === null
        ? null
        : `${why}: the server analyses it only while it is open, and searches none of the files left out from it`;
    }
  }
}
