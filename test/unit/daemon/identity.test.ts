import { describe, expect, test } from "bun:test";
import { daemonFiles } from "../../../src/daemon/files.ts";
import { configDigest, socketName } from "../../../src/daemon/identity.ts";
import { configWith } from "../../support/shared-bridge.ts";

const ID = { uid: 1000, roots: ["/p"], configDigest: "c", binaryDigest: "b" };

describe("socketName (SPEC §2.2)", () => {
  test("the same identity, the same name; any part changed, another", () => {
    const name = socketName(ID);
    expect(name).toMatch(/^[0-9a-f]{24}\.sock$/);
    expect(socketName({ ...ID })).toBe(name);
    for (const other of [
      { ...ID, uid: 1001 },
      { ...ID, roots: ["/q"] },
      { ...ID, roots: ["/p", "/q"] },
      { ...ID, configDigest: "d" },
      { ...ID, binaryDigest: "e" },
    ]) {
      expect(socketName(other)).not.toBe(name);
    }
  });

  test("a bridge's files sit beside its socket", () => {
    expect(daemonFiles("/d/abc.sock")).toEqual({
      socket: "/d/abc.sock",
      control: "/d/abc.ctl",
      lock: "/d/abc.lock",
      log: "/d/abc.log",
    });
  });
});

describe("configDigest", () => {
  const config = (idle: number) => configWith({ shared_idle_seconds: idle });
  test("follows the effective configuration and PATH", () => {
    const a = configDigest(config(300), "/bin");
    expect(configDigest(config(300), "/bin")).toBe(a);
    expect(configDigest(config(301), "/bin")).not.toBe(a);
    expect(configDigest(config(300), "/usr/bin")).not.toBe(a);
  });
});
