import { describe, expect, test } from "bun:test";
import { userConfiguration } from "../../../src/workspace/user-config.ts";

const shown = (deps: ReturnType<typeof userConfiguration>) =>
  deps.map((d) => `${d.kind} ${d.path}`);

describe("userConfiguration", () => {
  test("each program: its XDG directory's and its home directory's configuration files", () => {
    const env = { HOME: "/home/u" };
    expect(shown(userConfiguration(["clangd", "go", "cargo"], env))).toEqual([
      "entries /home/u/.config/clangd",
      "entries /home/u/.clangd",
      "entries /home/u/.config/go",
      "entries /home/u/.go",
      "entries /home/u/.config/cargo",
      "entries /home/u/.cargo",
    ]);
  });

  test("XDG_CONFIG_HOME and <PROGRAM>_HOME win; a relative value is no directory", () => {
    const env = { HOME: "/home/u", XDG_CONFIG_HOME: "/cfg", CARGO_HOME: "/opt/cargo" };
    expect(shown(userConfiguration(["cargo", "rust-analyzer"], env))).toEqual([
      "entries /cfg/cargo",
      "entries /opt/cargo",
      "entries /cfg/rust-analyzer",
      "entries /home/u/.rust-analyzer",
    ]);
    expect(shown(userConfiguration(["go"], { HOME: "rel", XDG_CONFIG_HOME: "x" }))).toEqual([]);
  });

  test("configuration by name; what the program writes as it runs is not", () => {
    const [xdg] = userConfiguration(["go"], { HOME: "/home/u" });
    for (const name of ["env", "config", "config.yaml", "rust-analyzer.toml", "settings.json"])
      expect(xdg?.names?.test(name)).toBe(true);
    for (const name of ["telemetry", ".package-cache", "registry", "bin"])
      expect(xdg?.names?.test(name)).toBe(false);
  });

  test("a name that could climb or hide a path is no program", () => {
    expect(userConfiguration(["..", "a/b", "", ".hidden"], { HOME: "/home/u" })).toEqual([]);
  });
});
