/** SPEC §7.2: the gate's flow around `decide` — claim, record, refuse — in one function. */
import { describe, expect, test } from "bun:test";
import { BridgeError } from "../../../src/errors.ts";
import { type ApplyCall, admitApply, judgeApply } from "../../../src/gate/admit.ts";
import { GateTranscript } from "../../../src/gate/transcript.ts";
import { thrown } from "../../support/thrown.ts";

const GATED = { mutation: "gated", mutation_allowlist: ["ci"] } as const;
const CALL: ApplyCall = {
  tool: "code_action_apply",
  client: "ci",
  workspace: "ws",
  server: "fake",
  handle: "valid",
  version: "match",
  files: 2,
};

describe("admitApply", () => {
  test("an allowed call claims once, passes and is recorded as allowed", () => {
    const transcript = new GateTranscript();
    let claims = 0;
    admitApply(GATED, transcript, { ...CALL, claim: () => ++claims === 1 });
    expect(claims).toBe(1);
    expect(transcript.list()).toMatchObject([
      { tool: "code_action_apply", client: "ci", workspace: "ws", allow: true, reason: "allowed" },
    ]);
  });

  test("a claim lost to another call is refused as used, and recorded so", () => {
    const transcript = new GateTranscript();
    const err = thrown(() => admitApply(GATED, transcript, { ...CALL, claim: () => false }));
    expect(err.code).toBe("GateDenied");
    expect(err.details).toEqual({ reason: "used" });
    expect(transcript.list()).toMatchObject([{ allow: false, reason: "used", files: 2 }]);
  });

  test("a refused call never claims; the refusal says why and how to recover", () => {
    const transcript = new GateTranscript();
    let claimed = false;
    const claim = () => {
      claimed = true;
      return true;
    };
    const drift = thrown(() => admitApply(GATED, transcript, { ...CALL, version: "drift", claim }));
    expect(claimed).toBe(false);
    expect(drift.message).toBe("code_action_apply denied: drift");
    expect(drift.hint).toContain("changed since the listing");
    const outsider = thrown(() => admitApply(GATED, transcript, { ...CALL, client: "agent" }));
    expect(outsider.details).toEqual({ reason: "not_allowlisted" });
    expect(outsider.hint).toContain("mutation_allowlist");
    expect(transcript.list().map((r) => r.reason)).toEqual(["drift", "not_allowlisted"]);
  });

  test("the caller may report a reason with its own error (rename_apply's drift)", () => {
    const transcript = new GateTranscript();
    const own = new BridgeError("WorkspaceDrift", "files changed");
    const call = { ...CALL, tool: "rename_apply", handle: "not_applicable", version: "drift" };
    const err = thrown(() =>
      admitApply(GATED, transcript, call as ApplyCall, (r) => (r === "drift" ? own : undefined)),
    );
    expect(err).toBe(own);
    expect(transcript.list()).toMatchObject([{ tool: "rename_apply", reason: "drift" }]);
  });
});

test("judgeApply records without throwing (an apply tool the client does not have)", () => {
  const transcript = new GateTranscript();
  const decision = judgeApply({ mutation: "off", mutation_allowlist: [] }, transcript, {
    ...CALL,
    workspace: null,
    server: null,
    handle: "not_applicable",
    version: "unchecked",
    files: 0,
  });
  expect(decision).toEqual({ allow: false, reason: "mutation_off" });
  expect(transcript.list()).toMatchObject([
    { allow: false, reason: "mutation_off", workspace: null, files: 0 },
  ]);
});
