/** Where each server of a workspace stands (SPEC §9.1), pure, from the configuration alone. */
import { describe, expect, test } from "bun:test";
import { byStanding, standings } from "../../../src/config/standing.ts";
import type { Config, ServerConfig, WorkspaceConfig } from "../../../src/config/types.ts";

function server(name: string, extensions: string[], over: Partial<ServerConfig> = {}) {
  return {
    name,
    extensions: Object.fromEntries(extensions.map((e) => [e, e])),
    filenames: {},
    shebangs: {},
    data_files: false,
    ...over,
  } as unknown as ServerConfig;
}

const servers = [
  server("gopls", ["go", "mod"]),
  server("bash", ["sh"], { shebangs: { bash: "sh" } }),
  server("tls", ["ts"]),
  server("json", ["json"], { data_files: true }),
  server("pyright", ["py"]),
  server("ruff", ["py"]),
  server("rust-analyzer", ["rs"]),
];

function tiers(list: string[], incidental: string[] = []): [string, string][] {
  const ws = { name: "w", root: "/w", servers: list, file_dirs: {}, incidental } as WorkspaceConfig;
  const config = { workspaces: [ws], servers } as unknown as Config;
  return standings(config, ws).map((s) => [s.server.name, s.tier]);
}

describe("standings", () => {
  test("the first server of the project's sources is main; incidental and data-file servers are not", () => {
    expect(tiers(["json", "bash", "gopls", "tls"], ["bash", "tls"])).toEqual([
      ["json", "data"],
      ["bash", "incidental"],
      ["gopls", "main"],
      ["tls", "incidental"],
    ]);
  });

  test("a server sharing the main server's files is main too (its diagnostics partner); others are source", () => {
    expect(tiers(["pyright", "rust-analyzer", "ruff", "json"])).toEqual([
      ["pyright", "main"],
      ["rust-analyzer", "source"],
      ["ruff", "main"],
      ["json", "data"],
    ]);
  });

  test("only data-file servers: none is main", () => {
    expect(tiers(["json"])).toEqual([["json", "data"]]);
  });

  test("ranked: tier first, then the workspace's order", () => {
    const ws = {
      name: "w",
      root: "/w",
      servers: ["json", "bash", "tls", "gopls", "pyright"],
      file_dirs: {},
      incidental: ["tls", "bash"],
    } as WorkspaceConfig;
    const config = { workspaces: [ws], servers } as unknown as Config;
    const ranked = standings(config, ws).sort(byStanding);
    expect(ranked.map((s) => s.server.name)).toEqual(["gopls", "pyright", "bash", "tls", "json"]);
  });
});
