import { describe, expect, test } from "bun:test";
import { userConfiguration } from "../../../src/workspace/user-config.ts";

const shown = (deps: ReturnType<typeof userConfiguration>) =>
  deps.map((d) => `${d.kind} ${d.path}`);

describe("userConfiguration", () => {
  test("each program: its XDG directory whole, its home directory's entries", () => {
    const env = { HOME: "/home/u" };
    expect(shown(userConfiguration(["clangd", "go", "cargo"], env))).toEqual([
      "tree /home/u/.config/clangd",
      "entries /home/u/.clangd",
      "tree /home/u/.config/go",
      "entries /home/u/.go",
      "tree /home/u/.config/cargo",
      "entries /home/u/.cargo",
    ]);
  });

  test("XDG_CONFIG_HOME and <PROGRAM>_HOME win; a relative value is no directory", () => {
    const env = { HOME: "/home/u", XDG_CONFIG_HOME: "/cfg", CARGO_HOME: "/opt/cargo" };
    expect(shown(userConfiguration(["cargo", "rust-analyzer"], env))).toEqual([
      "tree /cfg/cargo",
      "entries /opt/cargo",
      "tree /cfg/rust-analyzer",
      "entries /home/u/.rust-analyzer",
    ]);
    expect(shown(userConfiguration(["go"], { HOME: "rel", XDG_CONFIG_HOME: "x" }))).toEqual([]);
  });

  test("a name that could climb or hide a path is no program", () => {
    expect(userConfiguration(["..", "a/b", "", ".hidden"], { HOME: "/home/u" })).toEqual([]);
  });
});
