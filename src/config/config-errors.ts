/** The configuration's `ConfigInvalid` errors (SPEC §3, §4.6), built in one place. */
import { BridgeError } from "../errors.ts";

/** `codeblock`: smol-toml's excerpt of the lines around the error. */
export function tomlSyntaxError(
  source: string,
  line: number,
  column: number,
  reason: string,
  codeblock: string,
): BridgeError {
  const message = `${source}:${line}:${column}: TOML syntax error: ${reason}`;
  return new BridgeError("ConfigInvalid", message, {
    hint: "fix the TOML syntax at that line and column (https://toml.io)",
    details: { source, line, column, codeblock },
  });
}

/** `code`: the errno code of the failed read. */
export function configUnreadable(absolute: string, code: string): BridgeError {
  const what = code === "ENOENT" ? "does not exist" : `cannot be read (${code})`;
  return new BridgeError("ConfigInvalid", `config file ${absolute} ${what}`, {
    hint: "pass an existing bridge.toml with --config or THEODOLITE_CONFIG (see bridge.toml.example)",
    details: { path: absolute, expected: "a readable TOML file", errno: code },
  });
}

export function configNotUtf8(absolute: string): BridgeError {
  return new BridgeError("ConfigInvalid", `config file ${absolute} is not valid UTF-8`, {
    hint: "TOML files must be UTF-8 encoded",
    details: { path: absolute, expected: "UTF-8 text" },
  });
}

/** The first problem of a rejected file as `message`; `fix`: what to change. */
export function keysRejected(
  message: string,
  fix: string,
  source: string,
  details: Record<string, unknown>,
): BridgeError {
  return new BridgeError("ConfigInvalid", message, {
    hint: `${fix} in ${source} (SPEC §3); theodolite --check-config ${source} validates it`,
    details,
  });
}

/** `bridge.log.file` in a directory (`dir`) outside every workspace and the temp directory. */
export function logOutsideAllowed(dir: string): BridgeError {
  const path = "bridge.log.file";
  const message = `${path}: the directory ${dir} is outside every workspace and the system temp directory`;
  return new BridgeError("ConfigInvalid", message, {
    hint: "put the log file inside a workspace root or the system temp directory",
    details: { path, expected: "a path inside a workspace or the temp directory" },
  });
}
