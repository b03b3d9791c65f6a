/** SPEC §9.1: the sanitized child environment. */
import { describe, expect, test } from "bun:test";
import { SECRET_NAME_PATTERNS, secretPatternMatching } from "../../src/config/env-names.ts";
import { MINIMAL_ENV_NAMES, sanitizedEnv } from "../../src/process/env.ts";
import { serverEnv, supervisorEnv } from "../../src/process/self.ts";

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

describe("secret-looking names (SPEC §3)", () => {
  test.each([
    ["GITHUB_TOKEN", "*TOKEN*"],
    ["TOKENIZER_PATH", "*TOKEN*"],
    ["vault_secret_id", "*SECRET*"],
    ["PGPASSWORD", "*PASSWORD*"],
    ["OPENAI_API_KEY", "*_KEY"],
    ["aws_access_key", "*_KEY"],
    ["GOOGLE_APPLICATION_CREDENTIALS", "*CREDENTIAL*"],
  ])("%s matches %s", (name, pattern) => {
    expect(SECRET_NAME_PATTERNS).toContain(pattern);
    expect(secretPatternMatching(name)).toBe(pattern);
  });

  test.each(["CARGO_HOME", "KEYBOARD", "MONKEY", "PATH", "KEY_FILE"])(
    "%s is not secret",
    (name) => {
      expect(secretPatternMatching(name)).toBeNull();
    },
  );
});

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
      THEODOLITE_SUPERVISOR_ENV:
        "BUN_JSC_useBaselineJIT,BUN_JSC_useDFGJIT,BUN_JSC_useConcurrentJIT",
    });
    expect(serverEnv(sup)).toEqual({ PATH: "/usr/bin", HOME: "/h" });
  });

  test("a server environment with JSC options of its own keeps them, and adds none", () => {
    const sup = supervisorEnv({ PATH: "/bin", BUN_JSC_useDFGJIT: "1" });
    expect(sup).toEqual({ PATH: "/bin", BUN_JSC_useDFGJIT: "1" });
    expect(serverEnv(sup)).toEqual({ PATH: "/bin", BUN_JSC_useDFGJIT: "1" });
  });
});
