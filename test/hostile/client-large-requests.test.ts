/**
 * A client that reads its answers but sends requests of nearly the line bound, one after
 * another (SPEC §8.2): each is parsed, answered `FileNotFound` and is garbage once answered.
 * What came in is counted toward the bridge's collections like what its servers send, so
 * its peak resident size stays under RSS_BOUND_MB (421 MB before, docs/PERFORMANCE.md).
 */
import { afterAll, expect, test } from "bun:test";
import { MAX_MESSAGE_BYTES } from "../../src/mcp/transport/stdio.ts";
import { closeRawBridges } from "../support/raw-bridge.ts";
import { hostileBridge, peakRssMb, RSS_BOUND_MB } from "./bounds-harness.ts";

afterAll(closeRawBridges);

const REQUESTS = 40;

test("40 hover calls naming an 8 MiB path: each answered, the bridge under its bound", async () => {
  const h = await hostileBridge({});
  await h.bridge.initialize("large-requests");
  const file = "x".repeat(MAX_MESSAGE_BYTES - 512);
  for (let i = 0; i < REQUESTS; i++) {
    const r = await h.bridge.call("hover", { file, line: 1, column: 1 }, 60_000);
    expect(r.isError).toBe(true);
  }
  expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
}, 300_000);
