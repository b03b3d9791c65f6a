/**
 * The mutation gate (SPEC §7.1, §7.2): one pure decision function, no I/O, so it
 * can be tested on every combination of its inputs.
 */

import type { MutationMode } from "../config/types.ts";

/** `not_applicable`: `rename_apply`, which carries no handle (SPEC §7.3). */
export type HandleState = "valid" | "unknown" | "used" | "foreign_session" | "not_applicable";

/** `unchecked`: decisions taken before any hashing (registration, listing). */
export type VersionState = "match" | "drift" | "unchecked";

export type GateReason =
  | "allowed"
  | "mutation_off"
  | "no_identity"
  | "not_allowlisted"
  | "unknown"
  | "used"
  | "foreign_session"
  | "drift";

export interface GateInput {
  mutation: MutationMode;
  /** `clientInfo.name` from the MCP handshake, or null when the client sent none */
  identity: string | null;
  allowlist: readonly string[];
  handle: HandleState;
  version: VersionState;
}

export interface GateDecision {
  allow: boolean;
  reason: GateReason;
}

/**
 * Is `identity` allowlisted? Exact, case-sensitive match with no trimming: the
 * name is a routing label (SPEC §7.1), so "CI-gate" or " ci-gate" are other clients.
 * An empty name counts as no name (fails closed).
 */
function isAllowlisted(identity: string | null, allowlist: readonly string[]): boolean {
  if (identity === null || identity === "") return false;
  return allowlist.includes(identity);
}

/**
 * SPEC §7.1: the apply tools are listed (and callable) only under `gated` for an
 * allowlisted client name.
 */
export function applyClassRegistered(
  mutation: MutationMode,
  identity: string | null,
  allowlist: readonly string[],
): boolean {
  return mutation === "gated" && isAllowlisted(identity, allowlist);
}

/**
 * SPEC §7.2. The first failing check wins, in this order: mutation mode,
 * identity, allowlist, handle state, version state. Configuration-level reasons
 * come first so a misconfigured client learns the real cause rather than a
 * handle problem it cannot fix.
 */
export function decide(input: GateInput): GateDecision {
  if (input.mutation !== "gated") return deny("mutation_off");
  if (input.identity === null || input.identity === "") return deny("no_identity");
  if (!isAllowlisted(input.identity, input.allowlist)) return deny("not_allowlisted");
  switch (input.handle) {
    case "unknown":
    case "used":
    case "foreign_session":
      return deny(input.handle);
    case "valid":
    case "not_applicable":
      break;
  }
  if (input.version === "drift") return deny("drift");
  return { allow: true, reason: "allowed" };
}

function deny(reason: Exclude<GateReason, "allowed">): GateDecision {
  return { allow: false, reason };
}
