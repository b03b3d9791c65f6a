/** Routing by role, then by file name, extension or `#!` interpreter (SPEC §4.5), pure. */
import { describe, expect, test } from "bun:test";
import type { Config, ServerConfig, WorkspaceConfig } from "../../src/config/types.ts";
import { candidateServers, routeOne, serverHandlesFile } from "../../src/router.ts";
import { thrown } from "../support/thrown.ts";

const pyright = {
  name: "pyright",
  roles: ["semantics", "diagnostics"],
  extensions: { py: "python" },
} as unknown as ServerConfig;
const clangd = {
  name: "clangd",
  roles: ["semantics"],
  extensions: { c: "c", h: "c" },
} as unknown as ServerConfig;
const ws = { name: "ws", root: "/ws", servers: ["pyright", "clangd"] } as WorkspaceConfig;
const config = { workspaces: [ws], servers: [pyright, clangd] } as unknown as Config;

describe("candidateServers", () => {
  test("by role, then by the file's extension", () => {
    expect(candidateServers(config, ws, { role: "semantics", file: "a.py" })).toEqual([pyright]);
    expect(candidateServers(config, ws, { role: "semantics", file: "x.h" })).toEqual([clangd]);
    expect(candidateServers(config, ws, { role: "diagnostics" })).toEqual([pyright]);
  });

  test("a name every object inherits is no extension of any server", () => {
    expect(serverHandlesFile(pyright, "x.constructor")).toBe(false);
    for (const file of ["x.constructor", "x.toString", "x.hasOwnProperty"]) {
      const err = thrown(() => candidateServers(config, ws, { role: "semantics", file }));
      expect(err.code).toBe("NoServerForFile");
    }
  });
});

describe("files by name and by their #! line", () => {
  const bash = {
    name: "bash-language-server",
    roles: ["semantics", "diagnostics"],
    extensions: { sh: "shellscript" },
    filenames: { ".bashrc": "shellscript" },
    shebangs: { bash: "shellscript" },
  } as unknown as ServerConfig;
  const docker = {
    name: "docker-langserver",
    roles: ["semantics", "diagnostics"],
    extensions: {},
    filenames: { Dockerfile: "dockerfile" },
    shebangs: {},
  } as unknown as ServerConfig;
  const w = {
    name: "ws",
    root: "/ws",
    servers: ["pyright", "bash-language-server", "docker-langserver"],
  } as WorkspaceConfig;
  const c = { workspaces: [w], servers: [pyright, bash, docker] } as unknown as Config;

  test("a Dockerfile by name, a script by its interpreter, .bashrc by name", () => {
    expect(candidateServers(c, w, { role: "semantics", file: "/ws/infra/Dockerfile" })).toEqual([
      docker,
    ]);
    expect(
      candidateServers(c, w, {
        role: "semantics",
        file: "/ws/scripts/release",
        interpreter: "bash",
      }),
    ).toEqual([bash]);
    expect(candidateServers(c, w, { role: "diagnostics", file: "/ws/.bashrc" })).toEqual([bash]);
  });

  test("a script whose interpreter no server knows: NoServerForFile", () => {
    const err = thrown(() =>
      candidateServers(c, w, { role: "semantics", file: "/ws/scripts/x", interpreter: "perl" }),
    );
    expect(err.code).toBe("NoServerForFile");
  });
});

describe("a call naming no file (workspace_symbols, session_restart)", () => {
  const sv = (name: string, ext: string, over: Record<string, unknown> = {}) =>
    ({
      name,
      roles: ["semantics", "diagnostics"],
      extensions: { [ext]: ext },
      workspace_symbols: true,
      ...over,
    }) as unknown as ServerConfig;
  const gopls = sv("gopls", "go");
  const tls = sv("typescript-language-server", "ts");
  const bashLs = sv("bash-language-server", "sh");
  const yaml = sv("yaml-language-server", "yaml", { data_files: true });
  const rust = sv("rust-analyzer", "rs");
  const all = [gopls, tls, bashLs, yaml, rust];
  const route = (servers: string[], incidental: string[], server?: string) => {
    const w = { name: "ws", root: "/ws", servers, incidental } as WorkspaceConfig;
    const c = { workspaces: [w], servers: all } as unknown as Config;
    return routeOne(c, w, { role: "semantics", workspaceSymbols: true, server });
  };

  test("languages found only in test data or tooling give way to the project's own", () => {
    const incidental = ["typescript-language-server", "bash-language-server"];
    const servers = ["gopls", ...incidental, "yaml-language-server"];
    expect(route(servers, incidental).name).toBe("gopls");
    // named, any of them answers
    expect(route(servers, incidental, "typescript-language-server").name).toBe(
      "typescript-language-server",
    );
  });

  test("incidental servers answer when the project has none; data-file servers only after them", () => {
    expect(
      route(["bash-language-server", "yaml-language-server"], ["bash-language-server"]).name,
    ).toBe("bash-language-server");
    expect(route(["yaml-language-server"], []).name).toBe("yaml-language-server");
  });

  test("two languages of the project's own: still AmbiguousServer, naming them alone", () => {
    const err = thrown(() =>
      route(["rust-analyzer", "gopls", "bash-language-server"], ["bash-language-server"]),
    );
    expect(err.code).toBe("AmbiguousServer");
    expect(err.details).toEqual({ workspace: "ws", candidates: ["rust-analyzer", "gopls"] });
  });
});
