/** Routing by role and extension (SPEC §4.5), pure. */
import { describe, expect, test } from "bun:test";
import type { Config, ServerConfig, WorkspaceConfig } from "../../src/config/types.ts";
import { candidateServers, serverHandlesFile } from "../../src/router.ts";
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
