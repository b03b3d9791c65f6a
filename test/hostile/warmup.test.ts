/**
 * One bad file never kills a session (SPEC §3.3, §8.1): the warm-up skips what it cannot
 * serve and says so in session_status; only the file a call names can fail that call;
 * session_restart works; a root of "/" (unreadable and vanishing entries, a huge tree)
 * ends in a ready session, not an `Internal` error.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterEach(async () => {
  await closeRawBridges();
  removeTempDirs();
});

const hover = { contents: { kind: "markdown", value: "fake hover" } };

function config(root: string, warmup: string) {
  return writeConfig({
    bridge: { ready_timeout_ms: 30_000 },
    workspace: [{ name: "ws", root, servers: ["fake"] }],
    server: [
      fakeServer(
        "fake",
        { responses: { "textDocument/hover": hover } },
        { ready: { warmup_open: warmup } },
      ),
    ],
  });
}

type Entry = { state: string; readiness: { warmup: Record<string, unknown> | null } };

async function status(bridge: RawBridge, start: boolean): Promise<Entry> {
  const r = await bridge.call("session_status", { start }, 60_000);
  expect(r.isError).toBe(false);
  return (r.structured.sessions as Entry[])[0] as Entry;
}

describe("warm-up over a hostile workspace (SPEC §3.3)", () => {
  test("a 9 MB and a non-UTF-8 match are skipped; the session is ready; only the named file fails a call", async () => {
    const ws = realpathSync(tempDir("theodolite-hostile-warmup-"));
    writeFileSync(join(ws, "a_big.fake"), "x".repeat(9 * 1024 * 1024));
    writeFileSync(join(ws, "b_latin1.fake"), new Uint8Array([0x66, 0xe9, 0x0a]));
    writeFileSync(join(ws, "c.fake"), "fn_c\n");
    expect(Bun.spawnSync(["mkfifo", join(ws, "a_pipe.fake")]).success).toBe(true);
    const bridge = await RawBridge.start(config(ws, "**/*.fake"));
    const s = await status(bridge, true);
    expect(s.state).toBe("ready");
    expect(s.readiness.warmup).toMatchObject({
      pattern: "**/*.fake",
      file: "c.fake",
      skipped: [
        { file: "a_big.fake", reason: "FileTooLarge" },
        { file: "b_latin1.fake", reason: "NotUtf8" },
      ],
    });
    const ok = await bridge.call("hover", { file: "c.fake", line: 1, column: 1 });
    expect(ok.isError).toBe(false);
    expect((await bridge.call("hover", { file: "a_big.fake", line: 1, column: 1 })).code).toBe(
      "FileTooLarge",
    );
    expect((await bridge.call("hover", { file: "b_latin1.fake", line: 1, column: 1 })).code).toBe(
      "NotUtf8",
    );
    expect((await bridge.call("hover", { file: "c.fake", line: 1, column: 1 })).isError).toBe(
      false,
    );
    const restarted = await bridge.call("session_restart", {}, 60_000);
    expect(restarted.isError).toBe(false);
    expect((await status(bridge, false)).state).toBe("ready");
    expect(bridge.notJsonRpc).toEqual([]);
  }, 60_000);

  test("no usable match: ready anyway, with nothing opened and every refusal listed", async () => {
    const ws = realpathSync(tempDir("theodolite-hostile-warmup-"));
    writeFileSync(join(ws, "only.fake"), new Uint8Array([0xff, 0xfe]));
    const bridge = await RawBridge.start(config(ws, "**/*.fake"));
    const s = await status(bridge, true);
    expect(s.state).toBe("ready");
    expect(s.readiness.warmup).toMatchObject({
      file: null,
      skipped: [{ file: "only.fake", reason: "NotUtf8" }],
    });
  }, 60_000);

  test('root = "/": the bounded scan ends, the session is ready, not Internal', async () => {
    const bridge = await RawBridge.start(config("/", "**/*.theodolite-matches-nothing"));
    const s = await status(bridge, true);
    expect(s.state).toBe("ready");
    const warmup = s.readiness.warmup as { file: null; scan: { entries: number } };
    expect(warmup.file).toBeNull();
    expect(warmup.scan.entries).toBeGreaterThan(0);
    await bridge.ping(); // still serving
  }, 60_000);
});
