/** SPEC §9.2: the supervisor's environment (its JIT switches) and the server's, derived from it. */
import { describe, expect, test } from "bun:test";
import { serverEnv, supervisorEnv } from "../../../src/process/self.ts";

describe("supervisor environment", () => {
  test("the JIT switches are added for the supervisor and removed again for the server", () => {
    const server = { PATH: "/usr/bin", BUN_OPTIONS: "--smol", HOME: "/h" };
    const sup = supervisorEnv(server);
    expect(sup).toEqual({
      PATH: "/usr/bin",
      HOME: "/h",
      BUN_JSC_useBaselineJIT: "0",
      BUN_JSC_useDFGJIT: "0",
      BUN_JSC_useConcurrentJIT: "0",
      BUN_JSC_jitMemoryReservationSize: "16777216",
      THEODOLITE_SUPERVISOR_ENV:
        "BUN_JSC_useBaselineJIT,BUN_JSC_useDFGJIT,BUN_JSC_useConcurrentJIT,BUN_JSC_jitMemoryReservationSize",
    });
    expect(serverEnv(sup)).toEqual({ PATH: "/usr/bin", HOME: "/h" });
  });

  test("a server environment with JSC options of its own keeps them, and adds none", () => {
    const sup = supervisorEnv({ PATH: "/bin", BUN_JSC_useDFGJIT: "1" });
    expect(sup).toEqual({ PATH: "/bin", BUN_JSC_useDFGJIT: "1" });
    expect(serverEnv(sup)).toEqual({ PATH: "/bin", BUN_JSC_useDFGJIT: "1" });
  });
});
