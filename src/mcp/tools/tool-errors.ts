/**
 * What the tools refuse in their arguments (SPEC §4.2, §4.6), built in one place: a
 * number outside its bounds, a combination of arguments a tool does not take, a `symbol`
 * that names no symbol or several, an unknown snapshot, a payload beyond the handle.
 * Checked before a file is read or a server asked, unless the server's answer decides.
 * Text the caller sent arrives echoed (conventions.ts).
 */
import { BridgeError } from "../../errors.ts";

/** `name` outside `min..max`: details carry it and `max_<name>`. */
export function outsideBounds(
  name: string,
  min: number,
  max: number,
  got: number,
  hint: string,
): BridgeError {
  return new BridgeError("InvalidArgument", `${name} must be within ${min}..${max}, got ${got}`, {
    hint,
    details: { [name]: got, [`max_${name}`]: max },
  });
}

export function negativeOffset(offset: number): BridgeError {
  return new BridgeError("InvalidArgument", `offset must be 0 or more, got ${offset}`, {
    hint: "pass the previous page's next_offset, or leave offset out to start at the first item",
    details: { offset },
  });
}

/** A workspace_symbols query of `length` characters, outside 1..`max`. */
export function queryLength(length: number, max: number): BridgeError {
  return new BridgeError("InvalidArgument", `query must be 1..${max} characters, got ${length}`, {
    hint:
      length === 0
        ? "pass a symbol name or fragment"
        : `shorten the query to at most ${max} characters`,
    details: { length, max_query_length: max },
  });
}

/** Arguments a tool refuses together, or one without the one it needs (`message` says which). */
export function combinationRefused(message: string, hint: string): BridgeError {
  return new BridgeError("InvalidArgument", message, { hint });
}

export function linesReversed(first: number, last: number): BridgeError {
  return new BridgeError("InvalidArgument", `start_line ${first} is after end_line ${last}`, {
    hint: "give start_line ≤ end_line (both 1-based, inclusive), or leave either out",
    details: { start_line: first, end_line: last },
  });
}

/** `echoed`: the caller's edit_set, echoed. */
export function editSetMalformed(echoed: string): BridgeError {
  return new BridgeError("InvalidArgument", "edit_set must be the edit_set formatting answered", {
    hint: "pass formatting's edit_set as it came (64 hex digits), or leave it out",
    details: { edit_set: echoed },
  });
}

export function symbolEmpty(): BridgeError {
  return new BridgeError("InvalidArgument", "`symbol` must not be empty", {
    hint: "pass the symbol's name, or a `column`",
  });
}

export function symbolTooLong(length: number, max: number): BridgeError {
  return new BridgeError("InvalidArgument", `\`symbol\` is ${length} characters, over ${max}`, {
    hint: "pass the name (or the text to anchor on), not a longer excerpt",
  });
}

/** `symbol` without `line` that names no document symbol; `near`: names close to it. */
export function symbolNotFound(file: string, symbol: string, near: readonly string[]): BridgeError {
  const nearHint = near.length > 0 ? `; near: ${near.map((n) => `\`${n}\``).join(", ")}` : "";
  return new BridgeError("SymbolNotFound", `no symbol \`${symbol}\` in ${file}`, {
    hint: `names are exact and case-sensitive; a nested symbol or a method as a dotted path (\`Type.method\`, for Go receivers and Rust impl blocks too); document_symbols lists them; or pass \`line\`${nearHint}`,
    details: { file, symbol },
  });
}

/** `count` symbols named `symbol`; `candidates`: the first of them, as details list them. */
export function ambiguousSymbol(
  file: string,
  symbol: string,
  count: number,
  candidates: readonly unknown[],
): BridgeError {
  return new BridgeError("AmbiguousSymbol", `\`${symbol}\` names ${count} symbols in ${file}`, {
    hint: "use a dotted path with the container (`container.name`), or pass the `line` of one candidate",
    details: { file, symbol, count, candidates },
  });
}

/** SymbolNotFound for a position that no document symbol's range holds. */
export function noSymbolAt(file: string, line: number, column: number): BridgeError {
  return new BridgeError("SymbolNotFound", `no symbol holds ${line}:${column} in ${file}`, {
    hint: "pass a position inside a symbol (document_symbols lists their ranges), or `symbol` by name",
    details: { file, line, column },
  });
}

/** diagnostics' `since` naming a snapshot the bridge does not hold. */
export function snapshotUnknown(since: string): BridgeError {
  return new BridgeError("SnapshotUnknown", `no diagnostics snapshot "${since}" in this bridge`, {
    hint: "snapshots live in memory (the last 32 results); call diagnostics without `since` for a fresh one",
    details: { since },
  });
}

/** code_action_apply given more than its handle: `listed` for the message, `fields` echoed. */
export function payloadRejected(
  listed: string,
  fields: { names: string[]; count: number },
): BridgeError {
  return new BridgeError(
    "PayloadRejected",
    `code_action_apply takes only a handle; got ${listed}`,
    {
      hint: "pass {handle} from code_actions; edits are never accepted from the caller (SPEC §7.3)",
      details: { fields: fields.names, count: fields.count },
    },
  );
}
