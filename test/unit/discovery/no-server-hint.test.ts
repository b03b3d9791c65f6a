/** SPEC §2.1, §4.6: the NoServerForFile hint zero-config gives, naming what to install. */
import { describe, expect, test } from "bun:test";
import { findPreset } from "../../../src/config/presets.ts";
import type { DiscoveryReport } from "../../../src/config/types.ts";
import { zeroConfigNoServerHint } from "../../../src/discovery/no-server-hint.ts";

const ROOT = "/w";

describe("zero-config NoServerForFile hint", () => {
  const clangd = findPreset("clangd");
  function report(servers: DiscoveryReport["servers"]): DiscoveryReport {
    return {
      root: ROOT,
      workspace_bins: [],
      scan: { entries: 1, truncated: false, extensions: [] },
      toolchain: { typescript: null, python: null },
      servers,
    };
  }
  const leftOut = (name: string, why: string) => {
    const p = findPreset(name);
    if (!p) throw new Error(name);
    return {
      name,
      binaries: p.binaries,
      extensions: Object.keys(p.server.extensions),
      status: "left_out" as const,
      command: null,
      version: null,
      why,
    };
  };

  test("names the server to install and why it was left out", () => {
    expect(clangd).toBeDefined();
    const hint = zeroConfigNoServerHint(
      report([leftOut("clangd", "`clangd` not found in node_modules/.bin or on PATH")]),
      "/w/src/main.c",
    );
    expect(hint).toBe(
      ".c files need clangd, left out (clangd: `clangd` not found in node_modules/.bin or on PATH); " +
        "install clangd, then restart theodolite (zero-config discovers servers once, at start); " +
        "session_status shows what was looked for",
    );
  });

  test("two presets for .ts: both named", () => {
    const hint = zeroConfigNoServerHint(
      report([leftOut("typescript-language-server", "a"), leftOut("typescript-native", "b")]),
      "x.ts",
    );
    expect(hint).toContain(".ts files need typescript-language-server or typescript-native");
    expect(hint).toContain("install one of typescript-language-server, typescript-native");
  });

  test("an extension no preset serves; no file and no server; a configured server (a role question)", () => {
    expect(zeroConfigNoServerHint(report([]), "notes.xyz")).toContain(
      "no preset serves .xyz files",
    );
    expect(zeroConfigNoServerHint(report([leftOut("clangd", "x")]), undefined)).toContain(
      "zero-config found no usable language server",
    );
    const configured = { ...leftOut("clangd", "ok"), status: "configured" as const };
    expect(zeroConfigNoServerHint(report([configured]), "a.c")).toBeUndefined();
    expect(zeroConfigNoServerHint(report([configured]), undefined)).toBeUndefined();
  });

  test("a configured server without the call's role (bacon-ls diagnoses only): the one left out is named", () => {
    const bacon = { ...leftOut("bacon-ls", "ok"), status: "configured" as const };
    const hint = zeroConfigNoServerHint(
      report([
        leftOut("rust-analyzer", "`rust-analyzer` not found in node_modules/.bin or on PATH"),
        bacon,
      ]),
      "src/lib.rs",
    );
    expect(hint).toContain(".rs files need rust-analyzer, left out");
    expect(hint).not.toContain("bacon-ls");
  });

  test("a Dockerfile and a script by its #! line name their servers", () => {
    const docker = zeroConfigNoServerHint(
      report([leftOut("docker-langserver", "`docker-langserver` not found")]),
      "/w/infra/Dockerfile",
    );
    expect(docker).toStartWith(
      "`Dockerfile` needs docker-langserver, left out (docker-langserver:",
    );
    const script = zeroConfigNoServerHint(
      report([leftOut("bash-language-server", "`bash-language-server` not found")]),
      "/w/scripts/release",
      "bash",
    );
    expect(script).toStartWith("`release` needs bash-language-server, left out");
  });
});
