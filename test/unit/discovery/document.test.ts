/** SPEC §2.1: the configuration document zero-config and `init` share, built from the choice. */
import { describe, expect, test } from "bun:test";
import { validateConfig } from "../../../src/config/validate.ts";
import { configDocument } from "../../../src/discovery/document.ts";
import { decide, NONE, ROOT, withTypescript } from "../../support/discovery-choice.ts";

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

  test("ruff diagnoses beside pyright when the workspace configures it: pyright keeps semantics", () => {
    const { chosen } = decide(["py"], { ...NONE, ruffConfig: `${ROOT}/ruff.toml` });
    const doc = configDocument("/tmp", chosen) as { server: { name: string; roles: string[] }[] };
    expect(doc.server.map((s) => [s.name, s.roles])).toEqual([
      ["pyright", ["semantics"]],
      ["ruff", ["diagnostics"]],
    ]);
    expect(validateConfig(doc, "test").servers).toHaveLength(2);
  });

  test("no Cargo.toml in the root (a polyglot repository): bacon-ls left out, rust-analyzer diagnoses", () => {
    const { chosen, rows } = decide(["rs", "py"], { ...NONE, cargoAtRoot: false });
    const doc = configDocument("/tmp", chosen) as { server: { name: string; roles: string[] }[] };
    expect(doc.server.map((s) => [s.name, s.roles])).toEqual([
      ["rust-analyzer", ["semantics", "diagnostics"]],
      ["pyright", ["semantics", "diagnostics"]],
    ]);
    const bacon = rows.find((r) => r.name === "bacon-ls");
    expect(bacon?.why).toContain("no Cargo.toml");
  });
});
