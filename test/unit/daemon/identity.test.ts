import { describe, expect, test } from "bun:test";
import { daemonFiles } from "../../../src/daemon/files.ts";
import { configDigest, passedEnvNames, socketName } from "../../../src/daemon/identity.ts";
import { zeroConfigShell } from "../../../src/discovery/zero-config.ts";
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
    const a = configDigest(config(300), { PATH: "/bin" });
    expect(configDigest(config(300), { PATH: "/bin" })).toBe(a);
    expect(configDigest(config(301), { PATH: "/bin" })).not.toBe(a);
    expect(configDigest(config(300), { PATH: "/usr/bin" })).not.toBe(a);
  });

  test("follows every variable the servers get from the client's environment, and no other", () => {
    const base = config(300);
    const passing = {
      ...base,
      servers: base.servers.map((s) => ({ ...s, env_passthrough: ["PYTHONPATH"] })),
    };
    const env = { PATH: "/bin", PYTHONPATH: "/a", HOME: "/h", EDITOR: "vi" };
    const a = configDigest(passing, env);
    expect(configDigest(passing, { ...env, PYTHONPATH: "/b" })).not.toBe(a);
    expect(configDigest(passing, { ...env, PYTHONPATH: undefined })).not.toBe(a);
    expect(configDigest(passing, { ...env, HOME: "/g" })).not.toBe(a); // the minimal set
    expect(configDigest(passing, { ...env, EDITOR: "ed" })).toBe(a); // no server gets it
    // a server that does not pass it through: its value is nobody's business
    expect(configDigest(base, { ...env, PYTHONPATH: "/b" })).toBe(configDigest(base, env));
  });

  test("zero-config counts what any preset passes through: discovery chooses its servers later", () => {
    const names = passedEnvNames(zeroConfigShell("/"));
    expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV"]));
    expect(names).not.toContain("BUN_OPTIONS");
  });
});
