/**
 * A file that becomes unreadable and readable again (SPEC §5.2), on real pyright with the
 * bridge not running as root: `chmod 000` then `chmod 644` on an open file. After each
 * step the answers — the importer's diagnostics and hover, the file's own diagnostics —
 * equal those of a bridge started afresh, as the same unprivileged user, on a copy with
 * the same modes. Root reads every file whatever its mode, so under root (the CI) both
 * bridges run as `nobody` through setpriv (test/support/unprivileged.ts); never skipped.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../src/config/types.ts";
import { type BridgeHandle, startBridge, writeConfig } from "../support/bridge.ts";
import { answers, type Probe } from "../support/coherence.ts";
import { ok, realConfig, requiredServer } from "../support/real-bridge.ts";
import { findPyright } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { openTempDir, unprivilegedPrefix } from "../support/unprivileged.ts";

const pyright = await requiredServer("pyright", findPyright);

afterAll(removeTempDirs);

/** A directory the unprivileged user may read and search (a workspace, a config's). */
function readableDir(prefix: string): string {
  const dir = tempDir(prefix);
  chmodSync(dir, 0o755);
  return dir;
}

const home = openTempDir("theodolite-home-");

/** The real user id of a running process. */
function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^Uid:\s+(\d+)/m);
  return Number(line?.[1] ?? Number.NaN);
}

/** The bridge on `root` as an unprivileged user. */
async function unprivilegedBridge(root: string, server: ServerConfig): Promise<BridgeHandle> {
  const config = writeConfig(realConfig(root, server), readableDir("theodolite-config-"));
  const bridge = await startBridge({ config, prefix: unprivilegedPrefix(), env: { HOME: home } });
  await ok(bridge, "session_status", { start: true });
  return bridge;
}

/** A fresh unprivileged bridge's answers on a copy of `root`, modes kept. */
async function fresh(root: string, server: ServerConfig, probes: Probe[]): Promise<unknown[]> {
  const copy = readableDir("theodolite-fresh-");
  cpSync(root, copy, { recursive: true });
  await using bridge = await unprivilegedBridge(copy, server);
  return await answers(bridge, probes, copy);
}

describe.skipIf(!pyright)("pyright, the bridge not root: a file's mode round trip", () => {
  test("chmod 000 then chmod 644 on an open file: re-read and re-sent", async () => {
    if (!pyright) return;
    const root = readableDir("theodolite-perm-");
    writeFileSync(join(root, "lib.py"), "def f(a: int) -> int:\n    return a\n");
    writeFileSync(join(root, "app.py"), "from lib import f\n\nv: str = f(1)\n");
    const importer: Probe[] = [
      { tool: "diagnostics", args: { file: "app.py" } },
      { tool: "hover", args: { file: "app.py", line: 1, symbol: "f" } },
    ];
    const own: Probe = { tool: "diagnostics", args: { file: "lib.py" } };
    await using long = await unprivilegedBridge(root, pyright.config);
    expect(uidOf(long.pid)).not.toBe(0);
    const before = await answers(long, [...importer, own], root);
    expect(JSON.stringify(before)).toContain("def f(a: int) -> int");
    chmodSync(join(root, "lib.py"), 0o000);
    const unreadable = await answers(long, importer, root);
    expect(unreadable).toEqual(await fresh(root, pyright.config, importer));
    expect(JSON.stringify(unreadable)).not.toContain("def f(a: int) -> int");
    chmodSync(join(root, "lib.py"), 0o644);
    const again = await answers(long, [...importer, own], root);
    expect(again).toEqual(await fresh(root, pyright.config, [...importer, own]));
    expect(again).toEqual(before);
  }, 300_000);
});
