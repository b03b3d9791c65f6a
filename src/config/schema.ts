/**
 * SPEC §3: the shape of `bridge.toml` (zod 4, strict everywhere): every key with its type,
 * bounds, default and message; the types are inferred from it (types.ts), so a key is added
 * here only. What spans keys is schema-rules.ts; validate.ts runs both.
 */
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";

/** Workspace and server names: usable in tool arguments and key paths as they are. */
export const NAME_PATTERN = /^[A-Za-z0-9._-]+$/;

/** The line terminators a server may break lines at (SPEC §5, text/line-model.ts). */
export const LINE_TERMINATORS = [
  "cr",
  "lf",
  "crlf",
  "u2028",
  "u2029",
  "nel",
  "vt",
  "ff",
  "fs",
  "gs",
  "rs",
] as const;

type Terminator = (typeof LINE_TERMINATORS)[number];

/** Which of a server's line models a kind of its edits counts in (text/line-rule.ts). */
export const LINE_SOURCES = ["read", "answer", "either"] as const;

/** `edit_lines` unless a server's configuration says otherwise: as before the key existed. */
export const DEFAULT_EDIT_LINES = Object.freeze({
  rename: "read",
  rename_others: "read",
  code_action: "answer",
} as const);
const LSP_TERMINATORS: readonly Terminator[] = ["cr", "lf", "crlf"];

/** A line model's terminators: LF among them, each once. */
const terminatorList = z
  .array(z.enum(LINE_TERMINATORS))
  .refine((list) => list.includes("lf"), { error: 'expected a list that holds "lf"' })
  .refine((list) => new Set(list).size === list.length, { error: "expected each name once" });

/** Node/Bun timers overflow above this and fire at once; a timeout must stay below it. */
const MAX_TIMER_MS = 2_147_483_647;

function intIn(min: number, max: number, fallback: number) {
  const expected =
    max === Number.MAX_SAFE_INTEGER
      ? `expected an integer >= ${min}`
      : `expected an integer in ${min}..${max}`;
  return z
    .int({ error: expected })
    .min(min, { error: expected })
    .max(max, { error: expected })
    .default(fallback);
}

const nonEmptyString = z.string().min(1, { error: "expected a non-empty string" });

const absolutePath = z
  .string()
  .refine((s) => isAbsolute(s) && !s.includes("\0"), { error: "expected an absolute path" });

/** Workspace-relative: not absolute, no `..` segment, not empty. */
export function isSafeRelativePath(s: string): boolean {
  if (s.length === 0 || s.includes("\0") || isAbsolute(s)) return false;
  return !s.split(/[\\/]/).includes("..");
}

const relativePath = z.string().refine(isSafeRelativePath, {
  error: 'expected a relative path inside the workspace (not absolute, no "..")',
});

const name = z
  .string()
  .refine((s) => NAME_PATTERN.test(s), { error: "expected a name of [A-Za-z0-9._-]+" });

function isValidRegex(s: string): boolean {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}

const VALID_REGEX = { error: "expected a valid regular expression" };
const regex = z.string().refine(isValidRegex, VALID_REGEX);
const nonEmptyRegex = nonEmptyString.refine(isValidRegex, VALID_REGEX);
const stringList = () => z.array(z.string()).default(() => []);

/** TOML has no null: an absent optional key reads as null downstream. */
function absentAsNull<T extends z.ZodType>(schema: T) {
  return schema.optional().transform((v): z.output<T> | null => v ?? null);
}
const table = () => z.record(z.string(), z.unknown()).default(() => ({}));

const LogSchema = z.strictObject({
  level: z.enum(["error", "warn", "info", "debug"]).default("info"),
  /** absolute path of a log file; null for stderr only */
  file: absentAsNull(absolutePath),
  max_bytes: intIn(4096, Number.MAX_SAFE_INTEGER, 5_242_880),
  max_files: intIn(1, 1000, 3),
});

export const BridgeSchema = z.strictObject({
  max_sessions: intIn(1, 4, 4),
  shutdown_grace_ms: intIn(1, MAX_TIMER_MS, 2000),
  request_timeout_ms: intIn(1, MAX_TIMER_MS, 30_000),
  ready_timeout_ms: intIn(1, MAX_TIMER_MS, 120_000),
  max_result_bytes: intIn(1024, Number.MAX_SAFE_INTEGER, 262_144),
  max_file_bytes: intIn(1, Number.MAX_SAFE_INTEGER, 8_388_608),
  max_open_documents: intIn(1, 100_000, 64),
  column_unit: z.enum(["code-point", "utf-16", "utf-8"]).default("code-point"),
  mutation: z.enum(["off", "gated"]).default("off"),
  // presence matters ("off with a list" is invalid, SPEC §3): schema-rules.ts reads the document
  mutation_allowlist: stringList(),
  /** unused, accepted so that files written for earlier releases stay valid (SPEC §9.2) */
  setpriv: absolutePath.optional(),
  max_query_length: intIn(1, 4096, 128),
  /** upper bound for `limit` on list tools */
  max_limit: intIn(1, 10_000, 200),
  /** directories watched per workspace for changes to files servers never opened (SPEC §5.2) */
  max_watches: intIn(1, 1_000_000, 8192),
  /** the largest message a server may send (SPEC §8); a larger one breaks its session */
  max_server_message_bytes: intIn(65_536, 1_073_741_824, 33_554_432),
  /** private directory for the records of applies (SPEC §7.4); null: the user's state directory */
  state_dir: absentAsNull(absolutePath),
  /** one bridge per user, roots, configuration and binary, shared by its clients (SPEC §2.2) */
  shared: z.boolean().default(true),
  /** a shared bridge with no client for this long exits with its tree (SPEC §2.2) */
  shared_idle_seconds: intIn(1, 86_400, 300),
  log: LogSchema.prefault({}),
});

export const WorkspaceSchema = z.strictObject({
  name,
  // normalized (no trailing slash, no `.` segments) so containment checks compare cleanly
  root: absolutePath.transform((p) => resolve(p)),
  servers: z.array(nonEmptyString).min(1, { error: "expected a non-empty list of server names" }),
  /** directories of required files, e.g. { "compile_commands.json" = "build" } */
  file_dirs: z.record(z.string(), relativePath).default(() => ({})),
  /** minor servers: started after the others, evicted first, asked last (SPEC §4.5, §9.1) */
  incidental: z.array(nonEmptyString).default(() => []),
});

/** A file's name alone: no directory part. */
const fileName = z
  .string()
  .refine((s) => s.length > 0 && s !== "." && s !== ".." && !/[\\/\0]/.test(s), {
    error: "expected a file name without a directory",
  });

/** A notification or request as configured (SPEC §3). */
const lspMessage = {
  method: nonEmptyString,
  params: z.unknown().default(() => ({})),
};

/** SPEC §3.3: the keys are exactly these. */
const ReadySchema = z.strictObject({
  quiescent: z.boolean().default(false),
  progress: z.array(regex).default(() => []),
  progress_required: z.boolean().default(false),
  warmup_open: absentAsNull(relativePath),
  /** files that make a project: the warm-up prefers a file one includes (SPEC §3.3) */
  project_files: z.array(fileName).default(() => []),
  /** wait for the server's first publishDiagnostics of the warm-up file */
  warmup_publish: z.boolean().default(false),
  log_message: absentAsNull(nonEmptyRegex),
  probe: absentAsNull(z.strictObject(lspMessage)),
});

/** A file the workspace must contain before the server can answer correctly (SPEC §3.4). */
const RequirementSchema = z
  .strictObject({
    file: relativePath,
    format: z.enum(["compile_commands", "any"]).default("any"),
    dir_arg: absentAsNull(
      z
        .string()
        .refine((s) => s.includes("{dir}"), { error: 'expected a string containing "{dir}"' }),
    ),
    hint: nonEmptyString.optional(),
    /** copy it into the session's own directory, which `dir_arg` then names (SPEC §3.4) */
    private_copy: z.boolean().default(false),
  })
  .transform(({ hint, ...req }) => ({
    ...req,
    hint:
      hint ??
      `create ${req.file} in the workspace root, or point the workspace's file_dirs."${req.file}" at the directory that holds it`,
  }));

/** SPEC §6: a server whose diagnostics come from check runs (rust-analyzer's, bacon's). */
const RunsSchema = z.strictObject({
  /** $/progress title or token patterns of the runs */
  progress: z.array(regex).min(1, { error: "expected at least one $/progress pattern" }),
  /** the notification that starts a run: the bridge starts every run (SPEC §5.3) */
  start: absentAsNull(z.strictObject(lspMessage)),
  /** a request answered after a run's publishes; `republish`: files asked again (SPEC §6) */
  barrier: absentAsNull(z.strictObject({ ...lspMessage, republish: z.boolean().default(false) })),
});

/** Server keys that moved into a table: refused, the hint naming the new key (SPEC §3). */
export const MOVED_SERVER_KEYS: Readonly<Record<string, string>> = Object.freeze({
  diagnostics_progress: "diagnostics_runs.progress",
  diagnostics_run: "diagnostics_runs.start",
  diagnostics_barrier: "diagnostics_runs.barrier",
  diagnostics_republish: "diagnostics_runs.barrier.republish",
});

export const ServerSchema = z.strictObject({
  name,
  command: absolutePath,
  args: stringList(),
  version: nonEmptyString.refine((s) => s === s.trimEnd(), {
    error: "expected the version string without trailing white space (it is compared trimmed)",
  }),
  version_args: z.array(z.string()).default(() => ["--version"]),
  /** replaces `command` + `version_args` when the server binary cannot print its version */
  version_command: absentAsNull(
    z.array(z.string()).min(1, { error: 'expected a non-empty array ["/abs/path", args…]' }),
  ),
  languages: z.array(nonEmptyString).min(1, { error: "expected a non-empty list of languageIds" }),
  /** extension without dot → languageId */
  extensions: z.record(z.string(), nonEmptyString).default(() => ({})),
  /** file name, or a name pattern with `*`, → languageId (`Dockerfile`, `Dockerfile.*`; SPEC §4.5) */
  filenames: z.record(z.string(), nonEmptyString).default(() => ({})),
  /** interpreter named by a `#!` line → languageId, for files without an extension (SPEC §4.5) */
  shebangs: z.record(z.string(), nonEmptyString).default(() => ({})),
  roles: z
    .array(z.enum(["semantics", "diagnostics"]))
    .min(1, { error: 'expected a non-empty list of "semantics" and/or "diagnostics"' }),
  env: z.record(z.string(), z.string()).default(() => ({})),
  env_passthrough: stringList(),
  initialization_options: table(),
  settings: table(),
  ready: ReadySchema.prefault({}),
  /** how a file's diagnostics are known settled after a sync (SPEC §6, session/settle/) */
  diagnostics_settle: z
    .enum(["version", "publish", "quiescent", "pull", "progress", "tsserver"])
    .default("version"),
  diagnostics_runs: absentAsNull(RunsSchema),
  /** the encoding the server really counts columns in, over what it negotiates (SPEC §5) */
  position_encoding: absentAsNull(z.enum(["utf-8", "utf-16", "utf-32"])),
  /** where the server breaks lines in the positions it reads (SPEC §5, the line model) */
  line_terminators: terminatorList.default(() => [...LSP_TERMINATORS]),
  /** … in the positions of its answers, when not as it reads (SPEC §5) */
  answer_line_terminators: absentAsNull(terminatorList),
  /** which of those two its edits count in, per kind (SPEC §5) */
  edit_lines: z
    .strictObject({
      rename: z.enum(LINE_SOURCES).default(DEFAULT_EDIT_LINES.rename),
      rename_others: z.enum(LINE_SOURCES).default(DEFAULT_EDIT_LINES.rename_others),
      code_action: z.enum(LINE_SOURCES).default(DEFAULT_EDIT_LINES.code_action),
    })
    .default(() => ({ ...DEFAULT_EDIT_LINES })),
  /** open the files of its languages its watchers report created or changed (SPEC §5.2) */
  open_changed_files: z.boolean().default(false),
  /** false: no candidate for a workspace_symbols call without `server` (SPEC §4.5) */
  workspace_symbols: z.boolean().default(true),
  /** it serves data and build files, not a program's source (SPEC §9.1) */
  data_files: z.boolean().default(false),
  /** workspace-relative globs of files the server does not reload: a change restarts it (SPEC §5.3) */
  restart_on: stringList(),
  /** workspace-relative globs of files whose changes it is shown to follow (SPEC §5.3) */
  follows: stringList(),
  /** workspace-relative globs of files the server writes itself: no change (SPEC §5.3) */
  own_files: z.array(z.string()).default(() => []),
  /** workspace-relative globs of every file the server may read (SPEC §5.3) */
  reads: z.array(z.string()).default(() => ["**"]),
  /** what a change the server is not known to follow does (SPEC §5.3) */
  unproven: z.enum(["restart", "mark"]).default("restart"),
  /** workspace-relative globs whose change has it reload its configuration (SPEC §5.2) */
  reload_on: stringList(),
  /** the file defining its package set (gopls: go.mod), reported changed for a new package (SPEC §5.2) */
  package_manifest: absentAsNull(nonEmptyString),
  requires: z.array(RequirementSchema).default(() => []),
  /** which files the server sees as its whole program (SPEC §4.3 `outside_program`) */
  program: absentAsNull(z.enum(["tsconfig", "compile_commands", "pyrightconfig"])),
});

function arrayOfTables(key: string) {
  return { error: `expected an array of tables ([[${key}]] blocks)` };
}

export const FileSchema = z.strictObject({
  bridge: BridgeSchema.prefault({}),
  workspace: z
    .array(WorkspaceSchema, arrayOfTables("workspace"))
    .min(1, { error: "expected at least one [[workspace]] table" }),
  server: z
    .array(ServerSchema, arrayOfTables("server"))
    .min(1, { error: "expected at least one [[server]] table" }),
});
