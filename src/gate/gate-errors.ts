/**
 * The gate's refusal (SPEC §7.2), built in one place: `GateDenied` with the reason in
 * details and what to do for it; and the bug of an apply the gate let through without
 * the handle it consumed.
 */
import { BridgeError } from "../errors.ts";
import type { GateReason } from "./decide.ts";

export type DenyReason = Exclude<GateReason, "allowed">;

const HINTS: Record<DenyReason, string> = {
  mutation_off: 'edits need bridge.mutation = "gated" and an allowlisted client (SPEC §7.1)',
  no_identity: "the client sent no clientInfo.name; only allowlisted clients may apply (SPEC §7.1)",
  not_allowlisted: "this client name is not in bridge.mutation_allowlist (SPEC §7.1)",
  unknown: "call code_actions again for a fresh handle",
  used: "call code_actions again for a fresh handle",
  foreign_session: "call code_actions again for a fresh handle",
  drift: "a target file changed since the listing; call code_actions again",
};

/** `tool`: the apply tool the gate refused. */
export function gateDenied(tool: string, reason: DenyReason): BridgeError {
  return new BridgeError("GateDenied", `${tool} denied: ${reason}`, {
    hint: HINTS[reason],
    details: { reason },
  });
}

/** The gate allowed an apply whose handle, session or targets are not there: a bug. */
export function allowedWithoutHandle(): BridgeError {
  return new BridgeError("Internal", "the gate allowed an apply without its handle");
}
