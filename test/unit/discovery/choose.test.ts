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
    expect(names(plan.probe)).toEqual(["clangd", "ccls"]);
    expect(plan.fallback).toBe(false);
    expect(plan.notProbed.find((n) => n.preset.name === "pyright")?.why).toBe(
      "no .py/.pyi files or #!python/python3 scripts here",
    );
    expect(plan.notProbed.find((n) => n.preset.name === "docker-langserver")?.why).toBe(
      "no .dockerfile/.Dockerfile files or `Dockerfile`/`Dockerfile.*`/`Containerfile`/`Containerfile.*` here",
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
    const files = {
      extensions: new Set(["ts"]),
      names: new Set<string>(),
      interpreters: new Set<string>(),
    };
    const plan = planProbes(PRESETS, files, NONE, ROOT);
    const tsserver = "/g/lib/node_modules/typescript/lib/tsserver.js";
    const found = {
      command: "/g/bin/typescript-language-server",
      version: "5.3.0",
      versionCommand: null,
      typescript: { version: "5.9.3", tsserver, from: "beside it" },
    };
    const outcomes = plan.probe.map((p) =>
      p.preset.name === "typescript-language-server" ? { found } : { missing: "not needed" },
    );
    const { chosen } = choose(plan, outcomes, NONE, ROOT);
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

describe("files known by name and by their #! line", () => {
  test("a Dockerfile, CMakeLists.txt and a bash script without extension: their servers, saying why", () => {
    const { plan, chosen } = decide(
      ["md"],
      NONE,
      {},
      {
        names: ["Dockerfile", "CMakeLists.txt", "release", "README.md"],
        interpreters: ["bash"],
      },
    );
    expect(plan.fallback).toBe(false);
    expect(names(chosen)).toEqual([
      "bash-language-server",
      "docker-langserver",
      "cmake-language-server",
    ]);
    const why = (name: string) => chosen.find((c) => c.preset.name === name)?.why;
    expect(why("docker-langserver")).toBe("`Dockerfile` here");
    expect(why("cmake-language-server")).toBe("`CMakeLists.txt` here");
    expect(why("bash-language-server")).toBe("#!bash scripts here");
  });

  test("a python3.11 script is Python's: the interpreter's version is dropped", () => {
    const { plan } = decide(["md"], NONE, {}, { interpreters: ["python3.11"] });
    expect(names(plan.probe)).toContain("pyright");
  });
});

describe("one server per language and role", () => {
  test("C: clangd and ccls both found: clangd serves, ccls says why not", () => {
    const { chosen, rows } = decide(["c"], NONE);
    expect(names(chosen)).toEqual(["clangd"]);
    expect(row(rows, "ccls")?.why).toBe(
      "clangd serves the C/C++ files (one C/C++ server per workspace)",
    );
  });

  test("Python: pyright first; ruff only when the workspace configures it", () => {
    const plain = decide(["py"], NONE);
    expect(names(plain.chosen)).toEqual(["pyright"]);
    for (const alt of ["basedpyright", "ty", "pylsp"]) {
      expect(row(plain.rows, alt)?.why).toBe(
        "pyright serves the .py files (one Python server per workspace)",
      );
    }
    expect(row(plain.rows, "ruff")?.why).toStartWith(
      "pyright diagnoses the .py files; ruff diagnoses instead",
    );
    const ruffConfig = `${ROOT}/pyproject.toml`;
    const configured = decide(["py"], { ...NONE, ruffConfig });
    expect(names(configured.chosen)).toEqual(["pyright", "ruff"]);
    expect(configured.chosen[1]?.why).toBe(
      ".py/.pyi files here; the workspace configures ruff (pyproject.toml)",
    );
    // no other Python server: ruff alone diagnoses
    const alone = decide(["py"], NONE, {
      pyright: null,
      basedpyright: null,
      ty: null,
      pylsp: null,
    });
    expect(names(alone.chosen)).toEqual(["ruff"]);
  });

  test("basedpyright when pyright is missing, with the workspace's venv", () => {
    const venv = { ...NONE, venv: { dir: `${ROOT}/.venv`, python: `${ROOT}/.venv/bin/python` } };
    const { chosen } = decide(["py"], venv, { pyright: null });
    expect(names(chosen)).toEqual(["basedpyright"]);
    expect(chosen[0]?.settings).toEqual({ python: { pythonPath: `${ROOT}/.venv/bin/python` } });
  });
});

describe("a binary from the workspace and a TypeScript library", () => {
  test("the why names the workspace's own binary", () => {
    const bins = { ...NONE, bins: [`${ROOT}/node_modules/.bin`] };
    const { plan } = decide(["yaml"], bins);
    const outcomes = plan.probe.map(() => ({
      found: {
        command: `${ROOT}/node_modules/.bin/yaml-language-server`,
        version: "2.0.0",
        versionCommand: null,
      },
    }));
    const { chosen } = choose(plan, outcomes, bins, ROOT);
    expect(chosen[0]?.why).toBe(
      ".yaml/.yml files here; the workspace's own node_modules/.bin/yaml-language-server",
    );
  });

  test("astro-ls gets typescript.tsdk, or is left out without a TypeScript library", () => {
    const { plan } = decide(["astro"], NONE);
    const found = (typescriptLib: { lib: string; whose: string } | null) =>
      plan.probe.map(() => ({
        found: {
          command: "/opt/astro/bin/astro-ls",
          version: "2.17.1",
          versionCommand: null,
          typescriptLib,
        },
      }));
    const lib = { lib: "/opt/node_modules/typescript/lib", whose: "installed beside the server" };
    const withLib = choose(plan, found(lib), NONE, ROOT);
    expect(withLib.chosen[0]?.initializationOptions).toEqual({ typescript: { tsdk: lib.lib } });
    expect(withLib.chosen[0]?.why).toBe(
      ".astro files here; TypeScript library /opt/node_modules/typescript/lib (installed beside the server)",
    );
    const without = choose(plan, found(null), NONE, ROOT);
    expect(without.chosen).toEqual([]);
    expect(row(without.rows, "astro-ls")?.why).toBe(
      "it needs a TypeScript library (typescript.tsdk): no TypeScript below 7.x in the workspace or beside /opt/astro/bin/astro-ls",
    );
  });
});
