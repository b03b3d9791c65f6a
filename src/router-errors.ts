/**
 * What routing refuses (SPEC §4.5, §4.6), built in one place: a workspace or server name
 * that is missing or configures nothing, no server for the file, several that could
 * answer. Pure: they take the names they list.
 */
import { BridgeError } from "./errors.ts";

export function workspaceRequired(names: readonly string[]): BridgeError {
  return new BridgeError(
    "InvalidArgument",
    "`workspace` is required: more than one workspace is configured",
    {
      hint: `pass one of: ${names.join(", ")}`,
      details: { workspaces: names },
    },
  );
}

/** `names`: the configured workspaces. */
export function unknownWorkspace(name: string, names: readonly string[]): BridgeError {
  return new BridgeError("UnknownWorkspace", `workspace "${name}" is not configured`, {
    hint: `configured workspaces: ${names.join(", ")}`,
    details: { workspace: name },
  });
}

/** A call's `server` that workspace `ws` does not configure; `names`: the ones it does. */
export function unknownServer(ws: string, server: string, names: readonly string[]): BridgeError {
  return new BridgeError(
    "UnknownServer",
    `server "${server}" is not configured for workspace "${ws}"`,
    {
      hint: `servers of "${ws}": ${names.join(", ")}`,
      details: { workspace: ws, server },
    },
  );
}

/**
 * session_status's `server` filter naming no server of `ws` (the filtered workspace), or
 * of the bridge without one; `known`: the names it could be.
 */
export function unknownStatusServer(
  server: string,
  known: readonly string[],
  ws: string | undefined,
): BridgeError {
  const where = ws !== undefined ? ` for workspace "${ws}"` : "";
  return new BridgeError("UnknownServer", `server "${server}" is not configured${where}`, {
    hint: `servers${where}: ${known.join(", ")}`,
    details: { ...(ws !== undefined ? { workspace: ws } : {}), server },
  });
}

/** `hint`: zero-config's own word on the file, when it has one. */
export function noServerForFile(
  ws: string,
  role: string,
  file: string | undefined,
  hint: string | undefined,
): BridgeError {
  return new BridgeError(
    "NoServerForFile",
    file === undefined
      ? `no server with role "${role}" in workspace "${ws}"`
      : `no server with role "${role}" handles "${file}" in workspace "${ws}"`,
    {
      hint: hint ?? "check the servers' `extensions` and `roles` in the config, or pass `server`",
      details: { workspace: ws, role, ...(file !== undefined ? { file } : {}) },
    },
  );
}

/** `candidates`: the names of the servers that could answer. */
export function ambiguousServer(ws: string, candidates: readonly string[]): BridgeError {
  return new BridgeError(
    "AmbiguousServer",
    `${candidates.length} servers could answer; pass \`server\``,
    {
      hint: `pass server: one of ${candidates.join(", ")}`,
      details: { workspace: ws, candidates },
    },
  );
}
