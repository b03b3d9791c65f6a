import { describe, expect, test } from "bun:test";
import { bridgeNames } from "../../../src/daemon/sweep.ts";

const A = "0123456789abcdef01234567";
const B = "fedcba9876543210fedcba98";

describe("bridgeNames (SPEC §2.2)", () => {
  test("every bridge with a file in the directory, but the sweeping one; nothing else is a bridge's", () => {
    const entries = [
      `${A}.sock`,
      `${A}.log.1`,
      `${B}.log.1`,
      `${B}.lock`,
      "own.sock",
      `${A}.log.2`,
      `${A.toUpperCase()}.lock`,
      `${A}x.lock`,
      "notes.txt",
    ];
    expect(bridgeNames(entries, "own")).toEqual([A, B]);
    expect(bridgeNames(entries, A)).toEqual([B]);
  });
});
