/**
 * SPEC §3: the shape of `bridge.toml` (zod 4, strict everywhere): every key, its type, its
 * bounds, its default and the message when it is wrong. Keys are checked one at a time here;
 * schema-rules.ts checks what spans keys, and validate.ts runs both.
 */
import { isAbsolute } from "node:path";
import { z } from "zod";

/** Workspace and server names: usable in tool arguments and key paths as they are. */
export const NAME_PATTERN = /^[A-Za-z0-9._-]+$/;

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

export const FileSchema = z.strictObject({
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
