/**
 * SPEC §3 rules that span keys (schema.ts checks each alone), and problem paths in TOML
 * terms. Pure but for the workspace roots, which must exist.
 */
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { z } from "zod";
import { isForbiddenEnvName, secretPatternMatching } from "./env-names.ts";
import { type FileSchema, NAME_PATTERN } from "./schema.ts";
import type { ServerConfig, WorkspaceConfig } from "./types.ts";

/** The document as zod parsed it: shape, types and defaults already checked. */
type ParsedFile = z.output<typeof FileSchema>;

const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** One rejected key: its path in the parsed TOML document and what was expected there. */
export interface Problem {
  path: (string | number)[];
  expected: string;
  /** how the offending value looks (already described); absent when the value is not shown */
  got?: string;
  missing?: boolean;
  /** what the hint says to do, where more than fixing the path (a key that moved) */
  fix?: string;
}

/** What a TOML value looks like, for "got …" (bounded). */
export function describeValue(value: unknown): string {
  if (value instanceof Date) return `a date (${value.toISOString()})`;
  if (typeof value === "bigint") return `${value} (out of range)`;
  if (asRecord(value) !== undefined) return "a table";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function rawEntry(raw: unknown, key: string, index: number): Record<string, unknown> | undefined {
  const list = asRecord(raw)?.[key];
  return Array.isArray(list) ? asRecord(list[index]) : undefined;
}

function quoteKey(key: string): string {
  return BARE_KEY.test(key) ? key : JSON.stringify(key);
}

/** `server.<name>` when that name is valid and unique, else `server[<i>]`; then `.key`, `[i]`. */
export function renderPath(path: readonly (string | number)[], raw: unknown): string {
  let out = "";
  let i = 0;
  const head = path[0];
  const index = path[1];
  if ((head === "workspace" || head === "server") && typeof index === "number") {
    const list = asRecord(raw)?.[head];
    const entryName = rawEntry(raw, head, index)?.name;
    const unique =
      typeof entryName === "string" &&
      NAME_PATTERN.test(entryName) &&
      Array.isArray(list) &&
      list.filter((e) => asRecord(e)?.name === entryName).length === 1;
    out = unique ? `${head}.${quoteKey(entryName)}` : `${head}[${index}]`;
    i = 2;
  }
  for (; i < path.length; i++) {
    const seg = path[i];
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? quoteKey(seg ?? "") : `.${quoteKey(seg ?? "")}`;
  }
  return out === "" ? "(document)" : out;
}

/** `got`, when given, is the value found there (described for the message). */
type Add = (path: (string | number)[], expected: string, ...got: [unknown?]) => void;

/** Each entry equal to an earlier one is refused: at `path(index)`, `expected(first)`. */
function eachOnce(
  values: readonly (string | undefined)[],
  path: (index: number) => (string | number)[],
  expected: (first: number) => string,
  add: Add,
): void {
  const seen = new Map<string | undefined, number>();
  values.forEach((v, index) => {
    const first = seen.get(v);
    if (first === undefined) seen.set(v, index);
    else add(path(index), expected(first), v);
  });
}

function envNameProblem(name: string): string | null {
  if (!ENV_NAME_PATTERN.test(name))
    return "expected an environment variable name [A-Za-z_][A-Za-z0-9_]*";
  if (isForbiddenEnvName(name))
    return "expected a name other than BUN_BE_BUN / BUN_OPTIONS, which are never passed to a child (SPEC §9.1)";
  return null;
}

function checkBridge(file: ParsedFile, raw: unknown, add: Add): void {
  const { mutation, mutation_allowlist: list } = file.bridge;
  // the schema defaults an absent list to []; whether it was written matters here
  const written = asRecord(asRecord(raw)?.bridge)?.mutation_allowlist !== undefined;
  const path = ["bridge", "mutation_allowlist"];
  if (mutation === "off") {
    const off =
      'expected no mutation_allowlist while bridge.mutation = "off" (SPEC §7.1; set mutation = "gated" to use it)';
    if (written) add(path, off, list);
    return;
  }
  if (list.length === 0) {
    const gated =
      'expected a non-empty list of client names when bridge.mutation = "gated" (SPEC §7.1)';
    if (written) add(path, gated, list);
    else add(path, gated);
    return;
  }
  list.forEach((n, j) => {
    if (n.trim() === "") add([...path, j], "expected a non-empty client name", n);
  });
  const sameAs = (first: number) => `expected unique client names; same as ${path[1]}[${first}]`;
  eachOnce(list, (j) => [...path, j], sameAs, add);
}

/** `filenames` and `shebangs`: well-formed keys, each naming one of the server's languages. */
function checkNames(
  s: ServerConfig,
  key: "filenames" | "shebangs",
  pattern: RegExp,
  expected: string,
  at: (...rest: (string | number)[]) => (string | number)[],
  add: Add,
): void {
  for (const [name, lang] of Object.entries(s[key])) {
    if (!pattern.test(name)) add(at(key, name), expected);
    else if (!s.languages.includes(lang)) add(at(key, name), languageOf(s), lang);
  }
}

const languageOf = (s: ServerConfig) =>
  `expected one of this server's languages (${s.languages.join(", ")})`;

function checkServer(s: ServerConfig, i: number, raw: unknown, add: Add): void {
  const at = (...rest: (string | number)[]) => ["server", i, ...rest];
  eachOnce(
    s.roles,
    (j) => at("roles", j),
    () => "expected each role once",
    add,
  );
  eachOnce(
    s.languages,
    (j) => at("languages", j),
    () => "expected each languageId once",
    add,
  );
  for (const [ext, lang] of Object.entries(s.extensions)) {
    if (ext.startsWith("."))
      add(
        at("extensions", ext),
        `expected the extension without its leading dot ("${ext.slice(1)}")`,
      );
    else if (ext === "" || /[\s/\\]/.test(ext))
      add(at("extensions", ext), "expected a file extension (no white space or slashes)");
    else if (!s.languages.includes(lang)) add(at("extensions", ext), languageOf(s), lang);
  }
  checkNames(
    s,
    "filenames",
    /^[^\s/\\]+$/,
    "expected a file name or a name pattern with * (no white space or slashes)",
    at,
    add,
  );
  checkNames(
    s,
    "shebangs",
    /^[A-Za-z0-9._+-]+$/,
    "expected an interpreter name such as bash or python3",
    at,
    add,
  );
  for (const envName of Object.keys(s.env)) {
    const problem = envNameProblem(envName);
    if (problem) add(at("env", envName), problem);
  }
  s.env_passthrough.forEach((envName, j) => {
    const problem = envNameProblem(envName);
    const secret = secretPatternMatching(envName);
    const notSecret = `expected a non-secret variable name; it matches ${secret} (SPEC §3: write needed values in env instead)`;
    if (problem) add(at("env_passthrough", j), problem, envName);
    else if (secret) add(at("env_passthrough", j), notSecret, envName);
  });
  eachOnce(
    s.env_passthrough,
    (j) => at("env_passthrough", j),
    () => "expected each name once",
    add,
  );
  if (s.version_command !== null) {
    const first = s.version_command[0] ?? "";
    if (!isAbsolute(first)) add(at("version_command", 0), "expected an absolute path", first);
    if (rawEntry(raw, "server", i)?.version_args !== undefined)
      add(
        at("version_args"),
        "expected version_args or version_command, not both (version_command replaces command + version_args)",
      );
  }
  if (s.ready.progress_required && s.ready.progress.length === 0)
    add(
      at("ready", "progress_required"),
      "expected progress_required = true only with a non-empty ready.progress (SPEC §3.3)",
    );
  if (s.ready.project_files.length > 0 && s.ready.warmup_open === null)
    add(
      at("ready", "project_files"),
      "expected project_files only with ready.warmup_open: a project is the warm-up file's (SPEC §3.3)",
    );
  if (s.ready.warmup_publish && s.ready.warmup_open === null)
    add(
      at("ready", "warmup_publish"),
      "expected warmup_publish = true only with ready.warmup_open (SPEC §3.3)",
    );
  if (s.diagnostics_settle === "progress" && s.diagnostics_runs === null)
    add(at("diagnostics_runs"), 'expected diagnostics_runs with diagnostics_settle = "progress"');
  if (s.diagnostics_settle === "quiescent" && !s.ready.quiescent)
    add(
      at("diagnostics_settle"),
      'expected "quiescent" only with ready.quiescent = true',
      "quiescent",
    );
  const files = s.requires.map((r) => r.file);
  const sameAs = (first: number) => `expected each required file once; same as requires[${first}]`;
  eachOnce(files, (j) => at("requires", j, "file"), sameAs, add);
}

function checkWorkspace(w: WorkspaceConfig, i: number, servers: ServerConfig[], add: Add): void {
  const at = (...rest: (string | number)[]) => ["workspace", i, ...rest];
  const byName = new Map(servers.map((s) => [s.name, s]));
  w.servers.forEach((serverName, j) => {
    if (!byName.has(serverName))
      add(
        at("servers", j),
        `names unknown server ${JSON.stringify(serverName)} (configured: ${[...byName.keys()].join(", ")})`,
      );
  });
  eachOnce(
    w.servers,
    (j) => at("servers", j),
    () => "expected each server once",
    add,
  );
  const ofThis = `expected a server of this workspace (${w.servers.join(", ")})`;
  w.incidental.forEach((serverName, j) => {
    if (!w.servers.includes(serverName)) add(at("incidental", j), ofThis, serverName);
  });
  const required = new Set(
    w.servers.flatMap((n) => byName.get(n)?.requires.map((r) => r.file) ?? []),
  );
  for (const fileName of Object.keys(w.file_dirs)) {
    if (!required.has(fileName))
      add(
        at("file_dirs", fileName),
        `expected a file that a server of this workspace requires (${[...required].join(", ") || "none"})`,
      );
  }
  const directory = "expected an existing directory";
  try {
    if (!statSync(w.root).isDirectory())
      add(at("root"), `${directory} (it is not a directory)`, w.root);
  } catch {
    add(at("root"), `${directory} (it does not exist or cannot be read)`, w.root);
  }
}

/** Every cross-key problem, in document order (bridge, servers, workspaces). */
export function crossFieldProblems(file: ParsedFile, raw: unknown): Problem[] {
  const problems: Problem[] = [];
  const add: Add = (path, expected, ...got) => {
    problems.push(
      got.length === 0 ? { path, expected } : { path, expected, got: describeValue(got[0]) },
    );
  };
  const uniqueNames = (key: "server" | "workspace", entries: readonly { name: string }[]) => {
    const sameAs = (first: number) => `expected a unique ${key} name; same as ${key}[${first}]`;
    eachOnce(
      entries.map((e) => e.name),
      (j) => [key, j, "name"],
      sameAs,
      add,
    );
  };
  checkBridge(file, raw, add);
  uniqueNames("server", file.server);
  for (const [i, s] of file.server.entries()) checkServer(s, i, raw, add);
  uniqueNames("workspace", file.workspace);
  for (const [i, w] of file.workspace.entries()) checkWorkspace(w, i, file.server, add);
  return problems;
}
