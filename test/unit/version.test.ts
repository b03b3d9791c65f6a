/** The provenance `--version` prints (SPEC §2), as a line and as JSON. */
import { describe, expect, test } from "bun:test";
import { provenance, runtimeTarget, target, versionLine } from "../../src/version.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const base = {
  name: "theodolite",
  version: "1.2.3",
  commit: SHA,
  dirty: false,
  bun: "1.4.5",
  target: "linux-arm64-musl",
} as const;

describe("versionLine", () => {
  test("version, full commit, bun and target; -dirty only for a dirty tree", () => {
    expect(versionLine(base)).toBe(`theodolite 1.2.3 (commit ${SHA}, bun 1.4.5, linux-arm64-musl)`);
    expect(versionLine({ ...base, dirty: true })).toBe(
      `theodolite 1.2.3 (commit ${SHA}-dirty, bun 1.4.5, linux-arm64-musl)`,
    );
    expect(versionLine({ ...base, commit: "unknown", dirty: null })).toBe(
      "theodolite 1.2.3 (commit unknown, bun 1.4.5, linux-arm64-musl)",
    );
  });
});

describe("from source", () => {
  test("the running Bun's target, no commit", () => {
    expect(target()).toBe(runtimeTarget());
    expect(runtimeTarget()).toMatch(new RegExp(`^${process.platform}-${process.arch}(-musl)?$`));
    expect(provenance()).toEqual({
      name: "theodolite",
      version: expect.any(String),
      commit: "unknown",
      dirty: null,
      bun: Bun.version,
      target: runtimeTarget(),
    });
  });
});
