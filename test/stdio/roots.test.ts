/**
 * The client's roots as the workspace (SPEC §2.1, §4.8), through the compiled binary and
 * the SDK's own client: started zero-config in a directory that is no project, the bridge
 * asks a client offering `roots` for them and serves the first that is a project — tools
 * work on its files; a roots change moves it to the new root, stopping the old root's
 * server; a client without the capability is not asked and the refusal stands. The server
 * is the fake one, found as `taplo` by discovery (a wrapper on PATH).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../../src/process/proctree.ts";
import { pathToUri } from "../../src/workspace/uri.ts";
import { closeAllBridges, FAKE_LS, startBridge } from "../support/bridge.ts";
import { fails, ok } from "../support/real-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor, waitForValue } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

/** A PATH whose `taplo` is the fake server answering document symbols from the text. */
function fakeTaploPath(): string {
  const bin = tempDir("theodolite-roots-bin-");
  const scenario = JSON.stringify({ symbols_from_text: "area_\\w+" });
  writeFileSync(
    join(bin, "taplo"),
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "taplo 0.0.0-fake"; exit 0; fi\n` +
      `exec "${process.execPath}" "${FAKE_LS}" --scenario '${scenario}'\n`,
  );
  chmodSync(join(bin, "taplo"), 0o755);
  return `${bin}:/usr/bin:/bin`;
}

/** A project (a pyproject.toml marks it) with one TOML file naming `symbol`. */
function project(symbol: string): string {
  const dir = realpathSync(tempDir("theodolite-roots-project-"));
  writeFileSync(join(dir, "pyproject.toml"), '[project]\nname = "p"\n');
  writeFileSync(join(dir, "shapes.toml"), `${symbol} = 1\n`);
  return dir;
}

interface Status {
  bridge: {
    discovery: {
      root: string;
      refused?: { reason: string };
      roots?: {
        started_in: string;
        asked: string;
        listed: { uri: string; served: boolean }[] | null;
      };
    };
  };
  sessions: { server: string; state: string; pids: { server: number | null } }[];
}

describe("zero-config outside a project, with the client's roots", () => {
  const PATH = fakeTaploPath();

  test("the first root that is a project is served; a roots change moves to the new one", async () => {
    const cwd = realpathSync(tempDir("theodolite-roots-cwd-"));
    const first = project("area_one");
    const second = project("area_two");
    const roots = [{ uri: pathToUri(cwd) }, { uri: pathToUri(first) }];
    const bridge = await startBridge({ args: [], cwd, env: { PATH }, roots });
    const symbols = async () => {
      const r = await ok(bridge, "document_symbols", { file: "shapes.toml" });
      return (r.symbols as { name: string }[]).map((s) => s.name);
    };
    expect(await symbols()).toEqual(["area_one"]);
    const s = (await ok(bridge, "session_status")) as unknown as Status;
    expect(s.bridge.discovery.root).toBe(first);
    expect(s.bridge.discovery.roots?.started_in).toBe(cwd);
    expect(s.bridge.discovery.roots?.listed?.map((r) => r.served)).toEqual([false, true]);
    const firstServer = s.sessions.find((e) => e.server === "taplo")?.pids.server ?? 0;
    expect(isAlive(firstServer)).toBe(true);

    roots.splice(0, roots.length, { uri: pathToUri(second) });
    await bridge.client.sendRootsListChanged();
    await waitForValue(
      async () => {
        const now = (await ok(bridge, "session_status")) as unknown as Status;
        return now.bridge.discovery.root === second ? now : undefined;
      },
      10_000,
      { intervalMs: 50, what: "the bridge to serve the new root" },
    );
    expect(await symbols()).toEqual(["area_two"]);
    await waitFor(() => !isAlive(firstServer), 5_000, { what: "the old root's server to stop" });
  });

  test("a client without roots is not asked: the refusal stands", async () => {
    const cwd = realpathSync(tempDir("theodolite-roots-cwd-"));
    const bridge = await startBridge({ args: [], cwd, env: { PATH } });
    const err = await fails(bridge, "document_symbols", { file: "shapes.toml" });
    expect(err.code).toBe("WorkspaceRefused");
    const s = (await ok(bridge, "session_status")) as unknown as Status;
    expect(s.bridge.discovery.roots).toEqual({
      started_in: cwd,
      asked: "the client offers no roots (no `roots` capability)",
      listed: null,
    });
  });
});
