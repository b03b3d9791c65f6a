/**
 * SPEC §2.1, the pure decisions of discovery: which presets are worth looking for, which
 * serve (the workspace's TypeScript decides; pyright takes the workspace's venv), the
 * reason given for each, the document zero-config and init share, and the NoServerForFile
 * hint zero-config gives.
 */
import { describe, expect, test } from "bun:test";
import { findPreset, PRESETS } from "../../src/config/presets.ts";
import type { DiscoveryReport } from "../../src/config/types.ts";
import { validateConfig } from "../../src/config/validate.ts";
import {
  choose,
  type ProbeOutcome,
  type ProbePlan,
  planProbes,
} from "../../src/discovery/choose.ts";
import { configDocument } from "../../src/discovery/document.ts";
import { zeroConfigNoServerHint } from "../../src/discovery/no-server-hint.ts";
import type { WorkspaceToolchain } from "../../src/discovery/toolchain.ts";

const ROOT = "/w";
const NONE: WorkspaceToolchain = { typescript: null, venv: null, bins: [] };

function withTypescript(version: string): WorkspaceToolchain {
  const pkg = `${ROOT}/node_modules/typescript`;
  const major = Number.parseInt(version, 10);
  return {
    ...NONE,
    typescript: {
      version,
      major,
      package: pkg,
      tsserver: major < 7 ? `${pkg}/lib/tsserver.js` : null,
      tsc: `${pkg}/bin/tsc`,
    },
  };
}

/** Every probed preset found at /bin/<name> with the given version (default "1.0"). */
function foundAll(plan: ProbePlan, versions: Record<string, string | null> = {}): ProbeOutcome[] {
  return plan.probe.map(({ preset, command }) => {
    const version = versions[preset.name];
    if (version === null) return { missing: `\`${preset.binaries[0]}\` not found` };
    return {
      found: {
        command: command ?? `/bin/${preset.binaries[0]}`,
        version: version ?? "1.0",
        versionCommand: null,
      },
    };
  });
}

function decide(exts: string[], toolchain: WorkspaceToolchain, versions = {}) {
  const plan = planProbes(PRESETS, new Set(exts), toolchain, ROOT);
  return { plan, ...choose(plan, foundAll(plan, versions), toolchain, ROOT) };
}

const names = (xs: { preset: { name: string } }[]) => xs.map((x) => x.preset.name);
const row = (rows: { name: string; status: string; why: string }[], name: string) =>
  rows.find((r) => r.name === name);

describe("planProbes", () => {
  test("only presets whose files are here are looked for; the others say why not", () => {
    const { plan } = decide(["c", "md"], NONE);
    expect(names(plan.probe)).toEqual(["clangd"]);
    expect(plan.fallback).toBe(false);
    expect(plan.notProbed.find((n) => n.preset.name === "pyright")?.why).toBe(
      "no .py/.pyi files here",
    );
  });

  test("no file any preset serves: every preset is looked for (fallback)", () => {
    const { plan } = decide(["md"], NONE);
    expect(plan.fallback).toBe(true);
    expect(plan.probe).toHaveLength(PRESETS.length);
  });

  test("a TypeScript 5 workspace: typescript-native is not looked for", () => {
    const { plan } = decide(["ts"], withTypescript("5.9.3"));
    expect(names(plan.probe)).toEqual(["typescript-language-server"]);
    expect(plan.notProbed.find((n) => n.preset.name === "typescript-native")?.why).toBe(
      "the workspace's TypeScript 5.9.3 (node_modules/typescript) is not 7.x: typescript-language-server serves it",
    );
  });

  test("no workspace TypeScript: typescript-native is looked for only if typescript-language-server is not found", () => {
    const { plan } = decide(["ts"], NONE);
    expect(plan.probe.map((p) => [p.preset.name, p.unless])).toEqual([
      ["typescript-language-server", undefined],
      ["typescript-native", "typescript-language-server"],
    ]);
  });

  test("a TypeScript 7 workspace: its own tsc is checked, typescript-language-server is not looked for", () => {
    const { plan } = decide(["ts"], withTypescript("7.0.2"));
    expect(plan.probe.map((p) => [p.preset.name, p.command])).toEqual([
      ["typescript-native", `${ROOT}/node_modules/typescript/bin/tsc`],
    ]);
  });
});

describe("choose", () => {
  test("TypeScript 5 workspace with tsc 7 on PATH: typescript-language-server on the workspace's tsserver", () => {
    const { chosen, rows } = decide(["ts"], withTypescript("5.9.3"));
    expect(names(chosen)).toEqual(["typescript-language-server"]);
    expect(chosen[0]?.initializationOptions).toEqual({
      tsserver: { path: `${ROOT}/node_modules/typescript/lib/tsserver.js` },
    });
    expect(chosen[0]?.why).toBe(
      ".ts/.mts/.cts/.tsx/.js/.mjs/.cjs/.jsx files here; the workspace's TypeScript 5.9.3, through its node_modules/typescript/lib/tsserver.js",
    );
    expect(row(rows, "typescript-native")?.status).toBe("left_out");
  });

  test("TypeScript 7 workspace: typescript-native with the workspace's tsc", () => {
    const { chosen, rows } = decide(["ts"], withTypescript("7.0.2"), {
      "typescript-native": "Version 7.0.2",
    });
    expect(names(chosen)).toEqual(["typescript-native"]);
    expect(chosen[0]?.command).toBe(`${ROOT}/node_modules/typescript/bin/tsc`);
    expect(row(rows, "typescript-language-server")?.why).toContain("is 7.x: typescript-native");
  });

  test("no workspace TypeScript, both found: typescript-language-server; only tsc 7: typescript-native", () => {
    const both = decide(["ts"], NONE);
    expect(names(both.chosen)).toEqual(["typescript-language-server"]);
    expect(row(both.rows, "typescript-native")?.why).toContain("typescript-native only when no");
    const only7 = decide(["ts"], NONE, {
      "typescript-language-server": null,
      "typescript-native": "Version 7.0.2",
    });
    expect(names(only7.chosen)).toEqual(["typescript-native"]);
    expect(only7.chosen[0]?.why).toContain(
      "no workspace TypeScript and no typescript-language-server",
    );
    expect(row(only7.rows, "typescript-language-server")?.why).toBe(
      "`typescript-language-server` not found",
    );
  });

  test("pyright with a workspace venv gets python.pythonPath; without one, no setting", () => {
    const venv = { ...NONE, venv: { dir: `${ROOT}/.venv`, python: `${ROOT}/.venv/bin/python` } };
    const { chosen } = decide(["py"], venv);
    expect(chosen[0]?.settings).toEqual({ python: { pythonPath: `${ROOT}/.venv/bin/python` } });
    expect(chosen[0]?.why).toContain("virtual environment .venv/bin/python");
    expect(decide(["py"], NONE).chosen[0]?.settings).toEqual({});
  });

  test("a missing prerequisite does not leave a server out (clangd without compile_commands.json)", () => {
    expect(names(decide(["c"], NONE).chosen)).toEqual(["clangd"]);
  });

  test("one report row per preset, in the presets' order", () => {
    const { rows } = decide(["c", "ts"], NONE);
    expect(rows.map((r) => r.name)).toEqual(PRESETS.map((p) => p.name));
  });
});

describe("configDocument", () => {
  test("the workspace's toolchain merged over the preset; rust-analyzer semantics-only beside bacon-ls; it validates", () => {
    const { chosen } = decide(["ts", "rs", "py"], {
      ...withTypescript("5.9.3"),
      venv: { dir: `${ROOT}/.venv`, python: `${ROOT}/.venv/bin/python` },
    });
    const doc = configDocument("/tmp", chosen) as {
      server: {
        name: string;
        initialization_options: unknown;
        settings: unknown;
        roles: string[];
      }[];
    };
    const tls = doc.server.find((s) => s.name === "typescript-language-server");
    expect(tls?.initialization_options).toEqual({
      preferences: {},
      disableAutomaticTypingAcquisition: true,
      tsserver: { path: `${ROOT}/node_modules/typescript/lib/tsserver.js` },
    });
    expect(doc.server.find((s) => s.name === "pyright")?.settings).toEqual({
      python: { pythonPath: `${ROOT}/.venv/bin/python` },
    });
    expect(doc.server.find((s) => s.name === "rust-analyzer")?.roles).toEqual(["semantics"]);
    expect(validateConfig(doc, "test").servers.map((s) => s.name)).toEqual([
      "rust-analyzer",
      "bacon-ls",
      "pyright",
      "typescript-language-server",
    ]);
  });
});

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
});
