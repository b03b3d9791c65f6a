/**
 * The gate's flow for one apply call (SPEC §7.2), in one place for both apply tools and the
 * registration check: build `decide`'s input, let an allowed call claim what it consumes,
 * record the decision in the transcript, and refuse with `GateDenied`.
 */
import type { MutationMode } from "../config/types.ts";
import type { BridgeError } from "../errors.ts";
import { decide, type GateDecision, type HandleState, type VersionState } from "./decide.ts";
import { type DenyReason, gateDenied } from "./gate-errors.ts";
import type { GateTool, GateTranscript } from "./transcript.ts";

/** What the configuration says about mutation (the bridge config satisfies it). */
export interface GatePolicy {
  readonly mutation: MutationMode;
  readonly mutation_allowlist: readonly string[];
}

export interface ApplyCall {
  tool: GateTool;
  client: string | null;
  workspace: string | null;
  server: string | null;
  handle: HandleState;
  version: VersionState;
  /** number of target files, 0 if unknown (e.g. a forged handle) */
  files: number;
  /**
   * Runs only when the gate allows, before anything is written: takes what the call
   * consumes (a handle is used up, SPEC §7.3); false when another call took it first.
   */
  claim?: () => boolean;
}

/** Decide, claim, record: the decision as the transcript holds it. */
export function judgeApply(
  policy: GatePolicy,
  transcript: GateTranscript,
  call: ApplyCall,
): GateDecision {
  let decision = decide({
    mutation: policy.mutation,
    identity: call.client,
    allowlist: policy.mutation_allowlist,
    handle: call.handle,
    version: call.version,
  });
  if (decision.allow && call.claim && !call.claim()) decision = { allow: false, reason: "used" };
  transcript.record({
    tool: call.tool,
    client: call.client,
    workspace: call.workspace,
    server: call.server,
    allow: decision.allow,
    reason: decision.reason,
    files: call.files,
  });
  return decision;
}

/**
 * `judgeApply`, then a refusal thrown: `GateDenied` with the reason in details, unless
 * `refusal` gives the call's own error for that reason (rename_apply's drift is
 * WorkspaceDrift).
 */
export function admitApply(
  policy: GatePolicy,
  transcript: GateTranscript,
  call: ApplyCall,
  refusal?: (reason: DenyReason) => BridgeError | undefined,
): void {
  const decision = judgeApply(policy, transcript, call);
  if (decision.allow) return;
  const reason = decision.reason as DenyReason;
  throw refusal?.(reason) ?? gateDenied(call.tool, reason);
}
