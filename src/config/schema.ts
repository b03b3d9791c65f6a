/**
 * SPEC §3: the shape of `bridge.toml` (zod 4, strict everywhere) and `validateConfig`, which
 * turns a parsed TOML table into the `Config` of types.ts or throws one `ConfigInvalid` that
 * names the offending key path in TOML terms (`server.clangd.command`).
 *
 * Two phases: zod checks shape, types and defaults; `crossFieldProblems` (schema-rules.ts)
 * checks what spans keys (unique names, references, the mutation gate, secret names).
 */
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { BridgeError } from "../errors.ts";
import { checkLogLocation } from "./log-location.ts";
import {
  crossFieldProblems,
  describeValue,
  NAME_PATTERN,
  type Problem,
  renderPath,
} from "./schema-rules.ts";
import type { Config, ServerConfig, WorkspaceConfig } from "./types.ts";

export { NAME_PATTERN };

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

const regex = z.string().refine(isValidRegex, { error: "expected a valid regular expression" });
const nonEmptyRegex = nonEmptyString.refine(isValidRegex, {
  error: "expected a valid regular expression",
});
const stringList = () => z.array(z.string()).default(() => []);
const table = () => z.record(z.string(), z.unknown()).default(() => ({}));

const LogSchema = z.strictObject({
  level: z.enum(["error", "warn", "info", "debug"]).default("info"),
  file: absolutePath.optional(),
  max_bytes: intIn(4096, Number.MAX_SAFE_INTEGER, 5_242_880),
  max_files: intIn(1, 1000, 3),
});

const BridgeSchema = z.strictObject({
  max_sessions: intIn(1, 4, 4),
  shutdown_grace_ms: intIn(1, MAX_TIMER_MS, 2000),
  request_timeout_ms: intIn(1, MAX_TIMER_MS, 30_000),
  ready_timeout_ms: intIn(1, MAX_TIMER_MS, 120_000),
  max_result_bytes: intIn(1024, Number.MAX_SAFE_INTEGER, 262_144),
  max_file_bytes: intIn(1, Number.MAX_SAFE_INTEGER, 8_388_608),
  max_open_documents: intIn(1, 100_000, 64),
  column_unit: z.enum(["code-point", "utf-16", "utf-8"]).default("code-point"),
  mutation: z.enum(["off", "gated"]).default("off"),
  // Presence matters (SPEC §3: "off with a list" is invalid), so no default here.
  mutation_allowlist: z.array(z.string()).optional(),
  setpriv: absolutePath.default("/usr/bin/setpriv"),
  max_query_length: intIn(1, 4096, 128),
  max_limit: intIn(1, 10_000, 200),
  log: LogSchema.prefault({}),
});

const WorkspaceSchema = z.strictObject({
  name,
  root: absolutePath,
  servers: z.array(nonEmptyString).min(1, { error: "expected a non-empty list of server names" }),
  file_dirs: z.record(z.string(), relativePath).default(() => ({})),
});

/** SPEC §3.3: the keys are exactly these. */
const ReadySchema = z.strictObject({
  quiescent: z.boolean().default(false),
  progress: z.array(regex).default(() => []),
  progress_required: z.boolean().default(false),
  warmup_open: relativePath.optional(),
  log_message: nonEmptyRegex.optional(),
  probe: z
    .strictObject({ method: nonEmptyString, params: z.unknown().default(() => ({})) })
    .optional(),
});

const RequirementSchema = z.strictObject({
  file: relativePath,
  format: z.enum(["compile_commands", "any"]).default("any"),
  dir_arg: z
    .string()
    .refine((s) => s.includes("{dir}"), { error: 'expected a string containing "{dir}"' })
    .optional(),
  hint: nonEmptyString.optional(),
});

const ServerSchema = z.strictObject({
  name,
  command: absolutePath,
  args: stringList(),
  version: nonEmptyString.refine((s) => s === s.trimEnd(), {
    error: "expected the version string without trailing white space (it is compared trimmed)",
  }),
  version_args: z.array(z.string()).default(() => ["--version"]),
  version_command: z
    .array(z.string())
    .min(1, { error: 'expected a non-empty array ["/abs/path", args…]' })
    .optional(),
  languages: z.array(nonEmptyString).min(1, { error: "expected a non-empty list of languageIds" }),
  extensions: z.record(z.string(), nonEmptyString).default(() => ({})),
  roles: z
    .array(z.enum(["semantics", "diagnostics"]))
    .min(1, { error: 'expected a non-empty list of "semantics" and/or "diagnostics"' }),
  env: z.record(z.string(), z.string()).default(() => ({})),
  env_passthrough: stringList(),
  initialization_options: table(),
  settings: table(),
  ready: ReadySchema.prefault({}),
  diagnostics_settle: z
    .enum(["version", "publish", "quiescent", "pull", "progress"])
    .default("version"),
  diagnostics_progress: z.array(regex).default(() => []),
  requires: z.array(RequirementSchema).default(() => []),
});

function arrayOfTables(key: string) {
  return { error: `expected an array of tables ([[${key}]] blocks)` };
}

const FileSchema = z.strictObject({
  bridge: BridgeSchema.prefault({}),
  workspace: z
    .array(WorkspaceSchema, arrayOfTables("workspace"))
    .min(1, { error: "expected at least one [[workspace]] table" }),
  server: z
    .array(ServerSchema, arrayOfTables("server"))
    .min(1, { error: "expected at least one [[server]] table" }),
});

export type ParsedFile = z.output<typeof FileSchema>;
export type ParsedServer = z.output<typeof ServerSchema>;
export type ParsedWorkspace = z.output<typeof WorkspaceSchema>;

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean (true or false)",
  array: "an array",
  object: "a table",
  record: "a table",
  tuple: "an array",
};

/** Generic expectations for issues whose schema gave no message of its own. */
function expectationFor(iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case "invalid_type":
      return `expected ${TYPE_WORDS[iss.expected] ?? iss.expected}`;
    case "invalid_value":
      return `expected one of ${iss.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      if (iss.origin === "array") return `expected at least ${iss.minimum} item(s)`;
      if (iss.origin === "string") return "expected a non-empty string";
      return `expected a value >= ${iss.minimum}`;
    case "too_big":
      return `expected a value <= ${iss.maximum}`;
    case "unrecognized_keys": {
      const shape = (iss.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def
        ?.shape;
      const allowed = shape ? Object.keys(shape).join(", ") : "";
      return allowed ? `unknown key; allowed keys: ${allowed}` : "unknown key";
    }
    default:
      return undefined;
  }
}

function zodProblems(issues: readonly z.core.$ZodIssue[]): Problem[] {
  return issues.map((iss) => {
    const path = iss.path.filter((p): p is string | number => typeof p !== "symbol");
    if (iss.code === "unrecognized_keys") {
      const others = iss.keys.length > 1 ? ` (also unknown: ${iss.keys.slice(1).join(", ")})` : "";
      return { path: [...path, iss.keys[0] ?? ""], expected: `${iss.message}${others}` };
    }
    // zod reports non-finite numbers as `received: "Infinity"` with a null input.
    const received = (iss as { received?: unknown }).received;
    if (typeof received === "string") return { path, expected: iss.message, got: received };
    const input = (iss as { input?: unknown }).input;
    if (input === undefined) return { path, expected: iss.message, missing: true };
    return { path, expected: iss.message, got: describeValue(input) };
  });
}

function formatProblem(p: Problem, raw: unknown): { message: string; path: string } {
  const path = renderPath(p.path, raw);
  if (p.missing) return { path, message: `${path}: missing required key (${p.expected})` };
  if (p.got === undefined) return { path, message: `${path}: ${p.expected}` };
  return { path, message: `${path}: ${p.expected}, got ${p.got}` };
}

function configInvalid(problems: Problem[], raw: unknown, source: string): BridgeError {
  const formatted = problems.map((p) => formatProblem(p, raw));
  const first = formatted[0] ?? { path: "", message: "invalid configuration" };
  const firstProblem = problems[0];
  const more = formatted.length > 1 ? ` (and ${formatted.length - 1} more problem(s))` : "";
  const details: Record<string, unknown> = {
    path: first.path,
    expected: firstProblem?.expected ?? "",
    source,
  };
  if (formatted.length > 1) details.problems = formatted.slice(0, 20).map((f) => f.message);
  return new BridgeError("ConfigInvalid", `${first.message}${more}`, {
    hint: `fix ${first.path} in ${source} (SPEC §3); theodolite --check-config ${source} validates it`,
    details,
  });
}

function toServerConfig(s: ParsedServer): ServerConfig {
  return {
    name: s.name,
    command: s.command,
    args: s.args,
    version: s.version,
    version_args: s.version_args,
    version_command: s.version_command ?? null,
    languages: s.languages,
    extensions: s.extensions,
    roles: s.roles,
    env: s.env,
    env_passthrough: s.env_passthrough,
    initialization_options: s.initialization_options,
    settings: s.settings,
    ready: {
      quiescent: s.ready.quiescent,
      progress: s.ready.progress,
      progress_required: s.ready.progress_required,
      warmup_open: s.ready.warmup_open ?? null,
      log_message: s.ready.log_message ?? null,
      probe: s.ready.probe ? { method: s.ready.probe.method, params: s.ready.probe.params } : null,
    },
    diagnostics_settle: s.diagnostics_settle,
    diagnostics_progress: s.diagnostics_progress,
    requires: s.requires.map((r) => ({
      file: r.file,
      format: r.format,
      dir_arg: r.dir_arg ?? null,
      hint:
        r.hint ??
        `create ${r.file} in the workspace root, or point the workspace's file_dirs."${r.file}" at the directory that holds it`,
    })),
  };
}

function toWorkspaceConfig(w: ParsedWorkspace): WorkspaceConfig {
  // Normalized (no trailing slash, no `.` segments) so containment checks compare cleanly.
  return { name: w.name, root: resolve(w.root), servers: w.servers, file_dirs: w.file_dirs };
}

/** SPEC §3: validate a parsed TOML document; throws `ConfigInvalid` naming the key path. */
export function validateConfig(raw: unknown, source: string): Config {
  const parsed = FileSchema.safeParse(raw, {
    reportInput: true,
    error: (iss) => expectationFor(iss),
  });
  if (!parsed.success) throw configInvalid(zodProblems(parsed.error.issues), raw, source);
  const problems = crossFieldProblems(parsed.data, raw);
  if (problems.length > 0) throw configInvalid(problems, raw, source);
  const file = parsed.data;
  const b = file.bridge;
  const config: Config = {
    bridge: {
      max_sessions: b.max_sessions,
      shutdown_grace_ms: b.shutdown_grace_ms,
      request_timeout_ms: b.request_timeout_ms,
      ready_timeout_ms: b.ready_timeout_ms,
      max_result_bytes: b.max_result_bytes,
      max_file_bytes: b.max_file_bytes,
      max_open_documents: b.max_open_documents,
      column_unit: b.column_unit,
      mutation: b.mutation,
      mutation_allowlist: b.mutation_allowlist ?? [],
      setpriv: b.setpriv,
      max_query_length: b.max_query_length,
      max_limit: b.max_limit,
      log: {
        level: b.log.level,
        file: b.log.file ?? null,
        max_bytes: b.log.max_bytes,
        max_files: b.log.max_files,
      },
    },
    workspaces: file.workspace.map(toWorkspaceConfig),
    servers: file.server.map(toServerConfig),
    source,
  };
  checkLogLocation(config);
  return config;
}
