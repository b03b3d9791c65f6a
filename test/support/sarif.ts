/**
 * What SARIF 2.1.0 (its JSON schema, sarif-schema-2.1.0.json) requires of every field
 * `theodolite call --format sarif` writes (SPEC §2.2): the log's `version` and `runs`,
 * a run's `tool.driver.name`, a result's `message` with `text`, `level` among the
 * schema's values, locations whose `artifactLocation.uri` is a URI reference, regions
 * with 1-based integer lines and columns and an end not before the start, a run's
 * `columnKind` among the schema's two, its `properties` an object, and each invocation's
 * required `executionSuccessful` and notifications with a message and a level. Returns
 * the problems found, none for a valid log.
 */

const LEVELS = ["none", "note", "warning", "error"];
const COLUMN_KINDS = ["utf16CodeUnits", "unicodeCodePoints"];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const isInt = (v: unknown, min: number) => Number.isInteger(v) && (v as number) >= min;

function regionProblems(region: unknown, at: string): string[] {
  if (region === undefined) return [];
  if (!isObject(region)) return [`${at}: region is not an object`];
  const out: string[] = [];
  for (const [key, min] of [
    ["startLine", 1],
    ["startColumn", 1],
    ["endLine", 1],
    ["endColumn", 1],
  ] as const) {
    if (region[key] !== undefined && !isInt(region[key], min))
      out.push(`${at}.${key}: not an integer >= ${min}`);
  }
  const { startLine, endLine, startColumn, endColumn } = region as Record<
    string,
    number | undefined
  >;
  if (startLine === undefined) out.push(`${at}.startLine: required when a region has lines`);
  if (endLine !== undefined && startLine !== undefined && endLine < startLine)
    out.push(`${at}: ends before it starts`);
  if (
    endLine === startLine &&
    endColumn !== undefined &&
    startColumn !== undefined &&
    endColumn < startColumn
  )
    out.push(`${at}: ends before it starts`);
  return out;
}

function resultProblems(result: unknown, at: string): string[] {
  if (!isObject(result)) return [`${at}: not an object`];
  const out: string[] = [];
  if (!isObject(result.message) || typeof result.message.text !== "string")
    out.push(`${at}.message.text: required string`);
  if (result.level !== undefined && !LEVELS.includes(result.level as string))
    out.push(`${at}.level: not one of ${LEVELS}`);
  if (result.ruleId !== undefined && typeof result.ruleId !== "string")
    out.push(`${at}.ruleId: not a string`);
  const locations = result.locations;
  if (locations !== undefined && !Array.isArray(locations))
    out.push(`${at}.locations: not an array`);
  for (const [i, loc] of (Array.isArray(locations) ? locations : []).entries()) {
    const p = isObject(loc) ? loc.physicalLocation : undefined;
    if (!isObject(p)) {
      out.push(`${at}.locations[${i}].physicalLocation: required object`);
      continue;
    }
    const uri = isObject(p.artifactLocation) ? p.artifactLocation.uri : undefined;
    // RFC 3986 characters only (`#` would start a fragment), `%` before two hex digits
    const reference = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})+$/;
    if (typeof uri !== "string" || !reference.test(uri) || uri.startsWith("/"))
      out.push(`${at}.locations[${i}]: artifactLocation.uri must be a (relative) URI reference`);
    out.push(...regionProblems(p.region, `${at}.locations[${i}].region`));
  }
  return out;
}

export function sarifProblems(log: unknown): string[] {
  if (!isObject(log)) return ["the log is not an object"];
  const out: string[] = [];
  if (log.version !== "2.1.0") out.push('version: must be "2.1.0"');
  if (log.$schema !== undefined && typeof log.$schema !== "string")
    out.push("$schema: not a string");
  if (!Array.isArray(log.runs)) return [...out, "runs: required array"];
  for (const [r, run] of log.runs.entries()) {
    const driver = isObject(run) && isObject(run.tool) ? run.tool.driver : undefined;
    if (!isObject(driver) || typeof driver.name !== "string")
      out.push(`runs[${r}].tool.driver.name: required string`);
    if (isObject(driver) && driver.version !== undefined && typeof driver.version !== "string")
      out.push(`runs[${r}].tool.driver.version: not a string`);
    const results = isObject(run) ? run.results : undefined;
    if (results !== undefined && !Array.isArray(results))
      out.push(`runs[${r}].results: not an array`);
    for (const [i, result] of (Array.isArray(results) ? results : []).entries())
      out.push(...resultProblems(result, `runs[${r}].results[${i}]`));
    if (isObject(run)) out.push(...runProblems(run, `runs[${r}]`));
  }
  return out;
}

function runProblems(run: Json, at: string): string[] {
  const out: string[] = [];
  if (run.columnKind !== undefined && !COLUMN_KINDS.includes(run.columnKind as string))
    out.push(`${at}.columnKind: not one of ${COLUMN_KINDS}`);
  if (run.properties !== undefined && !isObject(run.properties))
    out.push(`${at}.properties: not an object`);
  const invocations = run.invocations;
  if (invocations !== undefined && !Array.isArray(invocations))
    out.push(`${at}.invocations: not an array`);
  for (const [i, inv] of (Array.isArray(invocations) ? invocations : []).entries()) {
    if (!isObject(inv) || typeof inv.executionSuccessful !== "boolean") {
      out.push(`${at}.invocations[${i}].executionSuccessful: required boolean`);
      continue;
    }
    const notes = inv.toolExecutionNotifications;
    for (const [j, n] of (Array.isArray(notes) ? notes : []).entries()) {
      const where = `${at}.invocations[${i}].toolExecutionNotifications[${j}]`;
      if (!isObject(n) || !isObject(n.message) || typeof n.message.text !== "string")
        out.push(`${where}.message.text: required string`);
      else if (n.level !== undefined && !LEVELS.includes(n.level as string))
        out.push(`${where}.level: not one of ${LEVELS}`);
    }
  }
  return out;
}
