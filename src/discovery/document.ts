/**
 * The configuration discovery produces (SPEC §2.1), as a TOML-shaped document: what
 * zero-config validates and serves, and what `init` prints. Both come from here, so they
 * always make the same choice.
 */
import { basename } from "node:path";
import { presetServerTable } from "../config/presets.ts";
import type { ChosenServer } from "./choose.ts";

/** A valid workspace name from a directory name. */
export function workspaceNameFor(dir: string): string {
  const name = basename(dir)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name.length > 0 ? name : "workspace";
}

/** The workspace's tables merged over the preset's (the workspace's own toolchain). */
function merged(base: unknown, over: Record<string, unknown>): Record<string, unknown> {
  return { ...(base as Record<string, unknown>), ...over };
}

/** The `[[workspace]]` and `[[server]]` tables for `dir` and the chosen servers. */
export function configDocument(dir: string, servers: ChosenServer[]): Record<string, unknown> {
  const tables = servers.map((d) => {
    const table = presetServerTable(d.preset, d.command, d.version, d.versionCommand);
    table.initialization_options = merged(table.initialization_options, d.initializationOptions);
    table.settings = merged(table.settings, d.settings);
    return table;
  });
  // a diagnostics-only server (bacon-ls, ruff) diagnoses the files it shares with a server of
  // both roles (rust-analyzer, pyright), which then answers semantics only: routing is never
  // ambiguous (SPEC §4.5)
  for (const linter of servers.filter((d) => d.preset.server.roles.join() === "diagnostics")) {
    const exts = Object.keys(linter.preset.server.extensions);
    for (const [i, d] of servers.entries()) {
      const shares = Object.keys(d.preset.server.extensions).some((e) => exts.includes(e));
      const table = tables[i];
      if (d !== linter && shares && table && d.preset.server.roles.length === 2) {
        table.roles = ["semantics"];
      }
    }
  }
  return {
    workspace: [{ name: workspaceNameFor(dir), root: dir, servers: tables.map((t) => t.name) }],
    server: tables,
  };
}
