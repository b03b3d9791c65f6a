/**
 * SPEC §3: `validateConfig` turns a parsed TOML table into the `Config` of types.ts, or
 * throws one `ConfigInvalid` naming the key path in TOML terms (`server.clangd.command`):
 * zod checks each key (schema.ts), then schema-rules.ts what spans keys.
 */
import type { z } from "zod";
import type { BridgeError } from "../errors.ts";
import { keysRejected } from "./config-errors.ts";
import { checkLogLocation } from "./log-location.ts";
import { FileSchema, MOVED_SERVER_KEYS } from "./schema.ts";
import { crossFieldProblems, describeValue, type Problem, renderPath } from "./schema-rules.ts";
import type { BridgeConfig, Config } from "./types.ts";

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

/** Unknown keys: each that moved into a table named with its new place, the rest together. */
function unknownKeys(
  path: (string | number)[],
  keys: readonly string[],
  message: string,
): Problem[] {
  const movedTo = (key: string) => (path[0] === "server" ? MOVED_SERVER_KEYS[key] : undefined);
  const moved = keys.flatMap((key) => {
    const to = movedTo(key);
    if (to === undefined) return [];
    const expected = `expected ${to} in its place (SPEC §3)`;
    return [{ path: [...path, key], expected, fix: `write ${key} as ${to}` }];
  });
  const rest = keys.filter((key) => movedTo(key) === undefined);
  if (rest.length === 0) return moved;
  const others = rest.length > 1 ? ` (also unknown: ${rest.slice(1).join(", ")})` : "";
  return [...moved, { path: [...path, rest[0] ?? ""], expected: `${message}${others}` }];
}

function zodProblems(issues: readonly z.core.$ZodIssue[]): Problem[] {
  return issues.flatMap((iss): Problem[] => {
    const path = iss.path.filter((p): p is string | number => typeof p !== "symbol");
    if (iss.code === "unrecognized_keys") return unknownKeys(path, iss.keys, iss.message);
    // zod reports non-finite numbers as `received: "Infinity"` with a null input.
    const received = (iss as { received?: unknown }).received;
    if (typeof received === "string") return [{ path, expected: iss.message, got: received }];
    const input = (iss as { input?: unknown }).input;
    if (input === undefined) return [{ path, expected: iss.message, missing: true }];
    return [{ path, expected: iss.message, got: describeValue(input) }];
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
  return keysRejected(
    `${first.message}${more}`,
    firstProblem?.fix ?? `fix ${first.path}`,
    source,
    details,
  );
}

/** The `[bridge]` settings of a file that sets none: what zero-config runs with (SPEC §2.1). */
export function defaultBridgeConfig(): BridgeConfig {
  return FileSchema.shape.bridge.parse(undefined);
}

/** SPEC §3: validate a parsed TOML document; throws `ConfigInvalid` naming the key path. */
export function validateConfig(raw: unknown, source: string): Config {
  const parsed = FileSchema.safeParse(raw, { reportInput: true, error: expectationFor });
  if (!parsed.success) throw configInvalid(zodProblems(parsed.error.issues), raw, source);
  const problems = crossFieldProblems(parsed.data, raw);
  if (problems.length > 0) throw configInvalid(problems, raw, source);
  const { bridge, workspace, server } = parsed.data;
  const config: Config = { bridge, workspaces: workspace, servers: server, source };
  checkLogLocation(config);
  return config;
}
