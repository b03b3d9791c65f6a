/**
 * SPEC §2.1, the pure decisions of discovery: which presets are worth looking for, which
 * serve (the workspace's TypeScript decides; pyright takes the workspace's venv), and the
 * reason given for each. Lua gets one server: emmylua_ls, the one tested against its real
 * server (docs/LANGUAGE-SERVERS.md#lua-language-server-not-tested-here), when both are found.
 */
import { describe, expect, test } from "bun:test";
import { PRESETS } from "../../../src/config/presets.ts";
import { choose, planProbes } from "../../../src/discovery/choose.ts";
import { decide, NONE, names, ROOT, row, withTypescript } from "../../support/discovery-choice.ts";

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

  test("no workspace TypeScript: the TypeScript found for typescript-language-server is pinned", () => {
    const plan = planProbes(PRESETS, new Set(["ts"]), NONE, ROOT);
    const tsserver = "/g/lib/node_modules/typescript/lib/tsserver.js";
    const found = {
      command: "/g/bin/typescript-language-server",
      version: "5.3.0",
      versionCommand: null,
      typescript: { version: "5.9.3", tsserver, from: "beside it" },
    };
    const { chosen } = choose(plan, [{ found }, { missing: "not needed" }], NONE, ROOT);
    expect(chosen[0]?.initializationOptions).toEqual({ tsserver: { path: tsserver } });
    expect(chosen[0]?.why).toContain("no workspace TypeScript: TypeScript 5.9.3 beside it");
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

describe("Lua: one server per workspace", () => {
  test("both found: emmylua_ls serves, lua-language-server is left out with the reason", () => {
    const { chosen, rows } = decide(["lua"], NONE);
    expect(names(chosen)).toEqual(["emmylua_ls"]);
    expect(row(rows, "lua-language-server")).toMatchObject({
      status: "left_out",
      why: "emmylua_ls serves the .lua files (one Lua server per workspace)",
    });
  });

  test("only lua-language-server found: it serves", () => {
    const { chosen } = decide(["lua"], NONE, { emmylua_ls: null });
    expect(names(chosen)).toEqual(["lua-language-server"]);
  });
});
