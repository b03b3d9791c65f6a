/**
 * SPEC §2.1: the workspace's own toolchain, read from disk without running anything —
 * node_modules/typescript as Node resolves it, node_modules/.bin, a venv.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { typescriptLibFrom, workspaceToolchain } from "../../../src/discovery/toolchain.ts";
import { type FileMap, removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const tree = (files: FileMap) => tempDir("theodolite-scan-", files);

describe("workspaceToolchain", () => {
  function typescriptPackage(at: string, version: string, files: string[]): void {
    const pkg = join(at, "node_modules", "typescript");
    mkdirSync(join(pkg, "lib"), { recursive: true });
    mkdirSync(join(pkg, "bin"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "typescript", version }));
    for (const f of files) writeFileSync(join(pkg, f), "");
  }

  test("the nearest node_modules/typescript, as Node resolves it, with tsserver and tsc", () => {
    const top = tree(["x"]);
    typescriptPackage(top, "7.0.2", ["bin/tsc"]);
    const inner = join(top, "packages", "app");
    mkdirSync(join(inner, "node_modules", ".bin"), { recursive: true });
    typescriptPackage(inner, "5.9.3", ["lib/tsserver.js", "bin/tsc"]);
    const t = workspaceToolchain(inner);
    expect(t.typescript).toEqual({
      version: "5.9.3",
      major: 5,
      package: join(inner, "node_modules", "typescript"),
      tsserver: join(inner, "node_modules", "typescript", "lib", "tsserver.js"),
      tsc: join(inner, "node_modules", "typescript", "bin", "tsc"),
    });
    expect(t.bins[0]).toBe(join(inner, "node_modules", ".bin"));
    // a package without its own TypeScript gets the ancestor's (a hoisted monorepo)
    const sibling = join(top, "packages", "lib");
    mkdirSync(sibling, { recursive: true });
    const hoisted = workspaceToolchain(sibling).typescript;
    expect(hoisted?.version).toBe("7.0.2");
    expect(hoisted?.tsserver).toBeNull();
  });

  test("an unreadable package.json does not count; no TypeScript anywhere is null", () => {
    const root = tree(["node_modules/typescript/package.json"]);
    expect(workspaceToolchain(root).typescript).toBeNull();
  });

  test("a .venv (or venv) with bin/python is the workspace's interpreter", () => {
    const root = tree(["venv/bin/python3", "main.py"]);
    expect(workspaceToolchain(root).venv).toEqual({
      dir: join(root, "venv"),
      python: join(root, "venv", "bin", "python3"),
    });
    const none = tree(["main.py", ".venv/README"]);
    expect(workspaceToolchain(none).venv).toBeNull();
  });

  test("the venv's bin is searched after node_modules/.bin", () => {
    const root = tree([".venv/bin/python", ".venv/bin/ruff", "node_modules/.bin/x"]);
    expect(workspaceToolchain(root).bins).toEqual([
      join(root, "node_modules", ".bin"),
      join(root, ".venv", "bin"),
    ]);
  });

  test("ruff is configured by ruff.toml, .ruff.toml or a [tool.ruff] table in pyproject.toml", () => {
    expect(workspaceToolchain(tree(["ruff.toml"])).ruffConfig).toEndWith("/ruff.toml");
    expect(workspaceToolchain(tree([".ruff.toml"])).ruffConfig).toEndWith("/.ruff.toml");
    const withTable = tree(["pyproject.toml"]);
    writeFileSync(
      join(withTable, "pyproject.toml"),
      '[project]\nname = "x"\n\n[tool.ruff.lint]\nselect = ["F"]\n',
    );
    expect(workspaceToolchain(withTable).ruffConfig).toBe(join(withTable, "pyproject.toml"));
    const without = tree(["pyproject.toml"]);
    writeFileSync(
      join(without, "pyproject.toml"),
      "[tool.black]\nline-length = 99\n# [tool.ruff]\n",
    );
    expect(workspaceToolchain(without).ruffConfig).toBeNull();
  });

  test("a TypeScript library for a server: below 7.x, with lib/typescript.js, resolved from a directory", () => {
    const top = tree(["x"]);
    typescriptPackage(top, "5.9.3", ["lib/typescript.js"]);
    const server = join(top, "node_modules", "@astrojs", "language-server", "bin");
    mkdirSync(server, { recursive: true });
    expect(typescriptLibFrom(server)).toBe(join(top, "node_modules", "typescript", "lib"));
    const seven = tree(["x"]);
    typescriptPackage(seven, "7.0.2", ["bin/tsc"]);
    expect(typescriptLibFrom(seven)).toBeNull();
  });
});
