/**
 * A flood of costly calls from one client (SPEC §8.2): many `rename_preview` calls at once,
 * each an edit set over hundreds of files the bridge reads and checks. Their work goes in
 * time slices of the workspace's turns, so a `session_status` sent meanwhile is answered
 * within PING_BOUND_MS while the previews are still running, and every preview is answered.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { RawBridge } from "../support/raw-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { cleanupAfterEach, PING_BOUND_MS, START_MS } from "./bounds-harness.ts";

const { started } = cleanupAfterEach();

const FILES = 100;
const CALLS = 48;
/** `foo` on the first line of each file, then 64 KiB of lines the check counts */
const TEXT = `foo\n${"let x = 1;\n".repeat(6000)}`;

async function floodBridge(): Promise<RawBridge> {
  const root = tempDir("theodolite-flood-");
  const changes: Record<string, unknown> = {};
  for (let i = 0; i < FILES; i++) {
    const name = `f${i}.fake`;
    writeFileSync(join(root, name), TEXT);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } };
    changes[`file://${root}/${name}`] = [{ range, newText: "bar" }];
  }
  const scenario = {
    capabilities: { textDocumentSync: 1, renameProvider: true },
    rename_edit: { changes },
  };
  const config = writeConfig({
    bridge: { shutdown_grace_ms: 500 },
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [fakeServer("fake", scenario)],
  });
  const bridge = await RawBridge.start(config);
  started.add(bridge.pid);
  await bridge.call("session_status", { start: true }, START_MS);
  return bridge;
}

describe("many costly calls at once (SPEC §8.2)", () => {
  test("session_status is answered promptly while they run; each is answered", async () => {
    const bridge = await floodBridge();
    const args = { file: "f0.fake", line: 1, column: 1, new_name: "bar" };
    let answered = 0;
    const previews = Array.from({ length: CALLS }, () =>
      bridge.call("rename_preview", args, 120_000).then((r) => {
        answered += 1;
        return r;
      }),
    );
    const status: number[] = [];
    let during = 0;
    while (answered < CALLS) {
      // rejects when not answered within the bound
      const r = await bridge.call("session_status", {}, PING_BOUND_MS);
      expect(r.isError).toBe(false);
      status.push(r.ms);
      if (answered < CALLS) during += 1;
    }
    const results = await Promise.all(previews);
    const failed = results.filter((r) => r.isError).map((r) => r.code ?? r.response.error);
    console.log(
      `[bounds] ${CALLS} rename_preview over ${FILES} files: ${status.length} session_status (${during} while they ran), slowest ${Math.max(...status).toFixed(0)} ms; the last preview after ${Math.max(...results.map((r) => r.ms)).toFixed(0)} ms`,
    );
    expect(failed).toEqual([]);
    expect(during).toBeGreaterThan(2);
  }, 120_000);
});
