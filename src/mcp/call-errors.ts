/**
 * What tools/call refuses before a tool's handler runs (SPEC §4.6, §7.1), built in one
 * place: a tool this client may not call, arguments that are no JSON object, arguments
 * the tool's input schema rejects. Names the caller sent arrive echoed (conventions.ts).
 */
import { BridgeError } from "../errors.ts";

/** `tool`: the name as echoed; `apply`: it is an edit tool this client is not let use. */
export function toolUnavailable(tool: string, apply: boolean): BridgeError {
  return new BridgeError("UnsupportedMethod", `tool "${tool}" is not available to this client`, {
    hint: apply
      ? 'edit tools are listed only with mutation = "gated" and an allowlisted client name (SPEC §7.1)'
      : "call tools/list for the tools this bridge offers",
    details: { tool },
  });
}

/** `type`: what the arguments are instead (`null`, `an array`, …). */
export function argumentsNotObject(type: string, tool: string): BridgeError {
  return new BridgeError("InvalidArgument", `arguments must be an object, not ${type}`, {
    hint: `pass the arguments of "${tool}" as a JSON object (see tools/list)`,
  });
}

/** `problem`: the schema's first complaint, described. */
export function schemaRejected(problem: string, tool: string): BridgeError {
  return new BridgeError("InvalidArgument", problem, {
    hint: `see the input schema of "${tool}" in tools/list`,
  });
}
