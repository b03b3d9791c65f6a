/**
 * Determinism with real servers (SPEC §1): the same queries against the same
 * files and the same pinned server give the same bytes — twice in one bridge, and once
 * more after the bridge is restarted on the same workspace copy (clangd then reads its
 * warm on-disk index; the answers must not change).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { serverTable } from "../../src/config/toml.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import {
  type BridgeHandle,
  closeBridgesAndTempDirs,
  startBridge,
  writeConfig,
} from "../support/bridge.ts";
import { requiredServer } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  materializeCFixture,
} from "../support/real-servers.ts";

const clangd = await requiredServer("clangd", findClangd);
const pyright = await requiredServer("pyright", findPyright);

afterAll(closeBridgesAndTempDirs);

type Query = [tool: string, args: Record<string, unknown>];

/** Run every query; the `text` content of each, failing on any tool error. */
async function answers(bridge: BridgeHandle, queries: Query[]): Promise<string[]> {
  const out: string[] = [];
  for (const [tool, args] of queries) {
    const r = await bridge.call(tool, args);
    if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)} failed: ${r.text}`);
    out.push(`${tool} ${JSON.stringify(args)}\n${r.text}`);
  }
  return out;
}

/** Twice in one bridge, then once in a fresh bridge on the same config and workspace. */
async function expectDeterministic(configPath: string, queries: Query[]): Promise<string[]> {
  let once: string[];
  {
    await using first = await startBridge({ config: configPath });
    once = await answers(first, queries);
    expect(await answers(first, queries)).toEqual(once);
  }
  // the fresh one once the first has stopped
  await using second = await startBridge({ config: configPath });
  expect(await answers(second, queries)).toEqual(once);
  return once;
}

function config(found: { config: ServerConfig } | null): ServerConfig {
  if (!found) throw new Error("server missing");
  return found.config;
}

describe.skipIf(!clangd)("clangd answers are byte-identical", () => {
  test("definition, references, symbols and diagnostics: twice, and after a restart", async () => {
    const c = materializeCFixture();
    const errs = materializeCFixture(undefined, "c-errors");
    const path = writeConfig({
      bridge: { ready_timeout_ms: 120_000 },
      workspace: [
        { name: "c", root: c, servers: ["clangd"] },
        { name: "errs", root: errs, servers: ["clangd"] },
      ],
      server: [serverTable(config(clangd))],
    });
    const at = { workspace: "c", file: "main.c", line: 6, symbol: "manhattan" };
    const texts = await expectDeterministic(path, [
      ["definition", at],
      ["references", at],
      ["references", { ...at, include_declaration: false }],
      ["document_symbols", { workspace: "c", file: "geometry.h" }],
      ["workspace_symbols", { workspace: "c", query: "point" }],
      ["diagnostics", { workspace: "errs", file: "broken.c" }],
      ["diagnostics", { workspace: "errs" }],
    ]);
    // the answers are the real ones, not empty ones that would trivially repeat
    expect(texts[1]).toContain('"total":3');
    expect(texts[5]).toContain("undeclared_var_use_suggest");
  });
});

describe.skipIf(!pyright)("pyright answers are byte-identical", () => {
  test("definition, references, symbols and diagnostics: twice, and after a restart", async () => {
    const root = copyFixture("python");
    const path = writeConfig({
      bridge: { ready_timeout_ms: 120_000 },
      workspace: [{ name: "py", root, servers: ["pyright"] }],
      server: [serverTable(config(pyright))],
    });
    const at = { file: "app.py", line: 8, symbol: "make_circle" };
    const texts = await expectDeterministic(path, [
      ["definition", at],
      ["references", at],
      ["references", { ...at, include_declaration: false }],
      ["document_symbols", { file: "geometry.py" }],
      ["workspace_symbols", { query: "Circle" }],
      ["diagnostics", { file: "errors.py" }],
      ["diagnostics", {}],
    ]);
    expect(texts[1]).toContain('"total":6');
    expect(texts[5]).toContain("reportCallIssue");
  });
});
