import { describe, expect, test } from "bun:test";
import {
  bridgeExited,
  bridgeFull,
  bridgeUnavailable,
  bridgeUnresponsive,
  isSharedBridgeError,
  refusalOf,
  refusedLine,
} from "../../../src/daemon/shared-errors.ts";
import { BridgeError } from "../../../src/errors.ts";

const bytes = (s: string) => Buffer.from(s, "utf8");

describe("the shared bridge's own errors (SPEC §2.2)", () => {
  test("each says which failure in details.shared_bridge", () => {
    expect(bridgeExited().toEnvelope()).toMatchObject({
      code: "SessionDead",
      details: { shared_bridge: "exited" },
    });
    expect(bridgeUnavailable(new BridgeError("ConfigInvalid", "x")).toEnvelope()).toMatchObject({
      code: "SessionDead",
      details: { shared_bridge: "unavailable", cause: "ConfigInvalid" },
    });
    expect(bridgeUnresponsive(7, "/d/s.sock").toEnvelope()).toMatchObject({
      code: "SessionDead",
      hint: expect.stringContaining("--isolated"),
      details: { shared_bridge: "unresponsive", pid: 7, socket: "/d/s.sock" },
    });
    expect(bridgeFull(32).toEnvelope()).toMatchObject({
      code: "SessionLimit",
      details: { shared_bridge: "full", limit_clients: 32 },
    });
    expect(isSharedBridgeError(bridgeFull(1))).toBe(true);
    expect(isSharedBridgeError(new BridgeError("ConfigInvalid", "x"))).toBe(false);
  });

  test("the refusal line is read back; no MCP message is taken for one", () => {
    const line = refusedLine(32);
    expect(line.endsWith("\n")).toBe(true);
    expect(refusalOf(bytes(line.trim()))?.toEnvelope()).toMatchObject(bridgeFull(32).toEnvelope());
    for (const other of [
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","method":"notifications/x","params":{"theodolite_refused":"full"}}',
      "not json",
      "null",
      "7",
    ])
      expect(refusalOf(bytes(other))).toBeUndefined();
  });
});
