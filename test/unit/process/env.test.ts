/** SPEC §9.1: the sanitized child environment. */
import { describe, expect, test } from "bun:test";
import { MINIMAL_ENV_NAMES, sanitizedEnv } from "../../../src/process/env.ts";

const server = (env: Record<string, string> = {}, env_passthrough: string[] = []) => ({
  env,
  env_passthrough,
});

describe("sanitizedEnv", () => {
  test("copies only the minimal set from the parent", () => {
    const parent = {
      PATH: "/usr/bin:/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      TMPDIR: "/tmp",
      TZ: "UTC",
      AWS_SECRET_ACCESS_KEY: "s3cr3t",
      CARGO_HOME: "/c",
      RANDOM_THING: "x",
    };
    expect(sanitizedEnv(server(), parent)).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      TMPDIR: "/tmp",
      TZ: "UTC",
    });
  });

  test("every minimal name is copied when present, absent ones stay absent", () => {
    const parent = Object.fromEntries(MINIMAL_ENV_NAMES.map((n) => [n, `v-${n}`]));
    expect(sanitizedEnv(server(), parent)).toEqual(parent);
    expect(sanitizedEnv(server(), { PATH: "/bin", HOME: undefined })).toEqual({ PATH: "/bin" });
  });

  test("env_passthrough names are copied when present", () => {
    const parent = { PATH: "/bin", CARGO_HOME: "/c", RUSTUP_HOME: "/r" };
    expect(sanitizedEnv(server({}, ["CARGO_HOME", "NOT_SET"]), parent)).toEqual({
      PATH: "/bin",
      CARGO_HOME: "/c",
    });
  });

  test("explicit env wins over the parent and passthrough", () => {
    const parent = { PATH: "/bin", CARGO_HOME: "/c" };
    expect(
      sanitizedEnv(
        server({ PATH: "/opt/bin", CARGO_HOME: "/x", RA_LOG: "error" }, ["CARGO_HOME"]),
        parent,
      ),
    ).toEqual({ PATH: "/opt/bin", CARGO_HOME: "/x", RA_LOG: "error" });
  });

  test("BUN_BE_BUN and BUN_OPTIONS never pass, even when listed or set", () => {
    const parent = { PATH: "/bin", BUN_BE_BUN: "1", BUN_OPTIONS: "--inspect" };
    const env = sanitizedEnv(
      server({ BUN_OPTIONS: "--x", BUN_BE_BUN: "1" }, ["BUN_BE_BUN", "BUN_OPTIONS"]),
      parent,
    );
    expect(env).toEqual({ PATH: "/bin" });
  });

  test("defaults to process.env as the parent", () => {
    const env = sanitizedEnv(server());
    expect(env.PATH).toBe(process.env.PATH);
    for (const name of Object.keys(env)) expect(MINIMAL_ENV_NAMES).toContain(name);
  });
});
