/**
 * SPEC §3 rules that span more than one key (zod checks each key alone in schema.ts), and the
 * rendering of problem paths in TOML terms. Pure except for the workspace-root check, which
 * must look at the file system (a root that does not exist is a config error, not a
 * start-time surprise).
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

/**
 * `server.<name>` when the entry has a valid name no other entry shares, else `server[<i>]`;
 * then `.key` for tables and `[i]` for arrays.
 */
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

/** Indexes of entries equal to an earlier entry, with the earlier index. */
function duplicates(values: readonly string[]): { index: number; first: number }[] {
  const seen = new Map<string, number>();
  const out: { index: number; first: number }[] = [];
  values.forEach((v, index) => {
    const first = seen.get(v);
    if (first === undefined) seen.set(v, index);
    else out.push({ index, first });
  });
  return out;
}

type Add = (path: (string | number)[], expected: string, got?: string) => void;

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
    if (written) {
      add(
        path,
        'expected no mutation_allowlist while bridge.mutation = "off" (SPEC §7.1; set mutation = "gated" to use it)',
        describeValue(list),
      );
    }
    return;
  }
  if (list.length === 0) {
    add(
      path,
      'expected a non-empty list of client names when bridge.mutation = "gated" (SPEC §7.1)',
      written ? "[]" : undefined,
    );
    return;
  }
  list.forEach((n, j) => {
    if (n.trim() === "") add([...path, j], "expected a non-empty client name", describeValue(n));
  });
  for (const d of duplicates(list))
    add(
      [...path, d.index],
      `expected unique client names; same as mutation_allowlist[${d.first}]`,
      describeValue(list[d.index]),
    );
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
    else if (!s.languages.includes(lang))
      add(
        at(key, name),
        `expected one of this server's languages (${s.languages.join(", ")})`,
        describeValue(lang),
      );
  }
}

function checkServer(s: ServerConfig, i: number, raw: unknown, add: Add): void {
  const at = (...rest: (string | number)[]) => ["server", i, ...rest];
  for (const d of duplicates(s.roles))
    add(at("roles", d.index), "expected each role once", describeValue(s.roles[d.index]));
  for (const d of duplicates(s.languages))
    add(
      at("languages", d.index),
      "expected each languageId once",
      describeValue(s.languages[d.index]),
    );
  for (const [ext, lang] of Object.entries(s.extensions)) {
    if (ext.startsWith("."))
      add(
        at("extensions", ext),
        `expected the extension without its leading dot ("${ext.slice(1)}")`,
      );
    else if (ext === "" || /[\s/\\]/.test(ext))
      add(at("extensions", ext), "expected a file extension (no white space or slashes)");
    else if (!s.languages.includes(lang))
      add(
        at("extensions", ext),
        `expected one of this server's languages (${s.languages.join(", ")})`,
        describeValue(lang),
      );
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
    if (problem) add(at("env_passthrough", j), problem, describeValue(envName));
    else if (secret)
      add(
        at("env_passthrough", j),
        `expected a non-secret variable name; it matches ${secret} (SPEC §3: write needed values in env instead)`,
        describeValue(envName),
      );
  });
  for (const d of duplicates(s.env_passthrough))
    add(
      at("env_passthrough", d.index),
      "expected each name once",
      describeValue(s.env_passthrough[d.index]),
    );
  if (s.version_command !== null) {
    const first = s.version_command[0] ?? "";
    if (!isAbsolute(first))
      add(at("version_command", 0), "expected an absolute path", describeValue(first));
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
      '"quiescent"',
    );
  for (const d of duplicates(s.requires.map((r) => r.file)))
    add(
      at("requires", d.index, "file"),
      `expected each required file once; same as requires[${d.first}]`,
      describeValue(s.requires[d.index]?.file),
    );
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
  for (const d of duplicates(w.servers))
    add(at("servers", d.index), "expected each server once", describeValue(w.servers[d.index]));
  w.incidental.forEach((serverName, j) => {
    if (!w.servers.includes(serverName))
      add(
        at("incidental", j),
        `expected a server of this workspace (${w.servers.join(", ")})`,
        describeValue(serverName),
      );
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
  try {
    if (!statSync(w.root).isDirectory())
      add(
        at("root"),
        "expected an existing directory (it is not a directory)",
        describeValue(w.root),
      );
  } catch {
    add(
      at("root"),
      "expected an existing directory (it does not exist or cannot be read)",
      describeValue(w.root),
    );
  }
}

/** Every cross-key problem, in document order (bridge, servers, workspaces). */
export function crossFieldProblems(file: ParsedFile, raw: unknown): Problem[] {
  const problems: Problem[] = [];
  const add: Add = (path, expected, got) => {
    problems.push(got === undefined ? { path, expected } : { path, expected, got });
  };
  checkBridge(file, raw, add);
  for (const d of duplicates(file.server.map((s) => s.name)))
    add(
      ["server", d.index, "name"],
      `expected a unique server name; same as server[${d.first}]`,
      describeValue(file.server[d.index]?.name),
    );
  file.server.forEach((s, i) => {
    checkServer(s, i, raw, add);
  });
  for (const d of duplicates(file.workspace.map((w) => w.name)))
    add(
      ["workspace", d.index, "name"],
      `expected a unique workspace name; same as workspace[${d.first}]`,
      describeValue(file.workspace[d.index]?.name),
    );
  file.workspace.forEach((w, i) => {
    checkWorkspace(w, i, file.server, add);
  });
  return problems;
}
