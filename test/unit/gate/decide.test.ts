import { describe, expect, test } from "bun:test";
import type { MutationMode } from "../../../src/config/types.ts";
import {
  applyClassRegistered,
  decide,
  type GateReason,
  type HandleState,
  type VersionState,
} from "../../../src/gate/decide.ts";

const MUTATIONS: MutationMode[] = ["off", "gated"];
const IDENTITIES: (string | null)[] = [
  null,
  "",
  "ci-gate",
  "CI-gate",
  " ci-gate",
  "ci-gate ",
  "other",
];
const ALLOWLISTS: string[][] = [[], ["ci-gate"], ["other-bot", "ci-gate"], ["ci"]];
const HANDLES: HandleState[] = ["valid", "unknown", "used", "foreign_session", "not_applicable"];
const VERSIONS: VersionState[] = ["match", "drift", "unchecked"];

/**
 * The expectation, written as the list of every check that fails, then the
 * first one by the SPEC §7.2 precedence. Deliberately not shaped like decide().
 */
function expected(
  mutation: MutationMode,
  identity: string | null,
  allowlist: string[],
  handle: HandleState,
  version: VersionState,
): GateReason {
  const failing = new Set<GateReason>();
  if (mutation === "off") failing.add("mutation_off");
  if (!identity) failing.add("no_identity");
  // exact string equality against each entry, written out by hand
  let listed = false;
  for (const name of allowlist) if (identity !== null && name === identity) listed = true;
  if (!listed) failing.add("not_allowlisted");
  if (handle === "unknown") failing.add("unknown");
  if (handle === "used") failing.add("used");
  if (handle === "foreign_session") failing.add("foreign_session");
  if (version === "drift") failing.add("drift");
  const order: GateReason[] = [
    "mutation_off",
    "no_identity",
    "not_allowlisted",
    "unknown",
    "used",
    "foreign_session",
    "drift",
  ];
  return order.find((r) => failing.has(r)) ?? "allowed";
}

describe("decide (SPEC §7.2)", () => {
  test("every combination of inputs matches the expectation table", () => {
    let combos = 0;
    let allowed = 0;
    const seenReasons = new Set<GateReason>();
    for (const mutation of MUTATIONS)
      for (const identity of IDENTITIES)
        for (const allowlist of ALLOWLISTS)
          for (const handle of HANDLES)
            for (const version of VERSIONS) {
              combos++;
              const got = decide({ mutation, identity, allowlist, handle, version });
              const want = expected(mutation, identity, allowlist, handle, version);
              const row = { mutation, identity, allowlist, handle, version };
              expect({ row, ...got }).toEqual({ row, allow: want === "allowed", reason: want });
              if (got.allow) allowed++;
              seenReasons.add(got.reason);
            }
    expect(combos).toBe(2 * 7 * 4 * 5 * 3);
    // Allowed only for: gated × identity "ci-gate" × the 2 allowlists holding it ×
    // handle valid|not_applicable × version match|unchecked = 8 rows.
    expect(allowed).toBe(8);
    expect([...seenReasons].sort()).toEqual(
      (
        [
          "allowed",
          "drift",
          "foreign_session",
          "mutation_off",
          "no_identity",
          "not_allowlisted",
          "unknown",
          "used",
        ] satisfies GateReason[]
      ).sort(),
    );
  });

  test("precedence: configuration reasons outrank handle reasons, which outrank drift", () => {
    const base = {
      mutation: "gated" as const,
      identity: "ci-gate",
      allowlist: ["ci-gate"],
      handle: "used" as const,
      version: "drift" as const,
    };
    expect(decide(base).reason).toBe("used");
    expect(decide({ ...base, mutation: "off" }).reason).toBe("mutation_off");
    expect(decide({ ...base, identity: null }).reason).toBe("no_identity");
    expect(decide({ ...base, allowlist: [] }).reason).toBe("not_allowlisted");
    expect(decide({ ...base, handle: "valid" }).reason).toBe("drift");
    expect(decide({ ...base, handle: "valid", version: "match" })).toEqual({
      allow: true,
      reason: "allowed",
    });
  });

  test("allowlist matching is exact: case-sensitive, no trimming, no prefixes", () => {
    const gate = (identity: string, allowlist: string[]) =>
      decide({ mutation: "gated", identity, allowlist, handle: "valid", version: "match" }).reason;
    expect(gate("ci-gate", ["ci-gate"])).toBe("allowed");
    expect(gate("CI-GATE", ["ci-gate"])).toBe("not_allowlisted");
    expect(gate("ci-gate", ["CI-gate"])).toBe("not_allowlisted");
    expect(gate(" ci-gate", ["ci-gate"])).toBe("not_allowlisted");
    expect(gate("ci-gate", ["ci-gate "])).toBe("not_allowlisted");
    expect(gate("ci", ["ci-gate"])).toBe("not_allowlisted");
    expect(gate("ci-gate", ["ci"])).toBe("not_allowlisted");
    expect(gate("ci-gate", ["*"])).toBe("not_allowlisted");
    expect(gate("", [""])).toBe("no_identity");
  });
});

describe("applyClassRegistered (SPEC §7.1)", () => {
  test("listed only under gated for an allowlisted, non-empty name", () => {
    for (const mutation of MUTATIONS)
      for (const identity of IDENTITIES)
        for (const allowlist of ALLOWLISTS) {
          const want =
            mutation === "gated" &&
            identity === "ci-gate" &&
            allowlist.some((name) => name === "ci-gate");
          expect({
            mutation,
            identity,
            allowlist,
            got: applyClassRegistered(mutation, identity, allowlist),
          }).toEqual({ mutation, identity, allowlist, got: want });
        }
  });

  test("an empty name under gated fails closed even if the allowlist holds an empty string", () => {
    expect(applyClassRegistered("gated", "", [""])).toBe(false);
    expect(applyClassRegistered("gated", null, [""])).toBe(false);
  });

  test("registration agrees with the gate's configuration checks", () => {
    for (const mutation of MUTATIONS)
      for (const identity of IDENTITIES)
        for (const allowlist of ALLOWLISTS) {
          const gate = decide({
            mutation,
            identity,
            allowlist,
            handle: "valid",
            version: "unchecked",
          });
          expect(applyClassRegistered(mutation, identity, allowlist)).toBe(gate.allow);
        }
  });
});
