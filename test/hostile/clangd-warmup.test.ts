/**
 * The warm-up against real clangd (SPEC §3.3): a vendored 9 MB source (sqlite3.c is
 * 9.6 MB) and a non-UTF-8 source sort before main.c and match the preset's warmup_open.
 * They are skipped, the session gets ready on main.c, hover on another file works, only
 * calls naming the bad files fail, and session_restart works.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BridgeHandle, closeAllBridges } from "../support/bridge.ts";
import { fails, ok, present, startAndStatus, startRealBridge } from "../support/real-bridge.ts";
import { findClangd, materializeCFixture } from "../support/real-servers.ts";

const clangd = await findClangd();
const dirs: string[] = [];

afterAll(async () => {
  await closeAllBridges();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!present("clangd", clangd))("clangd warm-up over unusable sources", () => {
  test("a 9 MB and a non-UTF-8 .c file do not stop hover on another file", async () => {
    if (!clangd) throw new Error("clangd missing");
    const root = materializeCFixture();
    dirs.push(root);
    writeFileSync(join(root, "aaa_vendored.c"), `/* big */\n${"int x;\n".repeat(1_400_000)}`);
    writeFileSync(join(root, "aab_latin1.c"), new Uint8Array([0x2f, 0x2f, 0xe9, 0x0a]));
    const bridge: BridgeHandle = await startRealBridge(root, clangd.config);
    const s = await startAndStatus(bridge);
    expect(s.state).toBe("ready");
    expect((s.readiness as { warmup: unknown }).warmup).toMatchObject({
      file: "main.c",
      skipped: [
        { file: "aaa_vendored.c", reason: "FileTooLarge" },
        { file: "aab_latin1.c", reason: "NotUtf8" },
      ],
    });
    const hover = await ok(bridge, "hover", { file: "util.c", line: 5, symbol: "manhattan" });
    expect(hover.text as string).toContain("manhattan");
    expect(
      (await fails(bridge, "hover", { file: "aaa_vendored.c", line: 2, column: 5 })).code,
    ).toBe("FileTooLarge");
    expect((await fails(bridge, "document_symbols", { file: "aab_latin1.c" })).code).toBe(
      "NotUtf8",
    );
    await ok(bridge, "session_restart");
    const again = await ok(bridge, "hover", { file: "main.c", line: 6, symbol: "manhattan" });
    expect(again.text as string).toContain("manhattan");
  }, 120_000);
});
