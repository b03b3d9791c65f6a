/** SPEC §3: environment variable names the configuration refuses (secret-looking names). */
import { describe, expect, test } from "bun:test";
import { SECRET_NAME_PATTERNS, secretPatternMatching } from "../../../src/config/env-names.ts";

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
