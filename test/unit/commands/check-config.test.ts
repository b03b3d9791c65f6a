/** SPEC §2 `--check-config`: effective config plus one line per check; exit 0 or 2. */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCheckConfig } from "../../../src/commands/check-config.ts";
import { BridgeError } from "../../../src/errors.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

const tmp = tempDir("theodolite-check-");
const root = join(tmp, "app");
mkdirSync(root);
afterAll(removeTempDirs);

function executable(name: string, body: string): string {
  const path = join(tmp, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const fakeServer = executable("fake-ls", "echo 'fake-ls 2.0.1'");

function writeConfig(name: string, serverBlock: string, extra = ""): string {
  const path = join(tmp, name);
  writeFileSync(
    path,
    `[bridge]
${extra}

[[workspace]]
name = "app"
root = "${root}"
servers = ["fake"]

[[server]]
name = "fake"
languages = ["x"]
roles = ["semantics"]
${serverBlock}
`,
  );
  return path;
}

async function run(path: string, extra?: Parameters<typeof runCheckConfig>[2]) {
  const lines: string[] = [];
  const code = await runCheckConfig(path, (l) => lines.push(l), extra);
  return { code, lines };
}

describe("runCheckConfig", () => {
  test("valid config: exit 0, effective config, one ok line per check", async () => {
    const path = writeConfig("ok.toml", `command = "${fakeServer}"\nversion = "fake-ls 2.0.1"`);
    const { code, lines } = await run(path);
    expect(code).toBe(0);
    const effective = JSON.parse(lines[0] ?? "");
    expect(effective.bridge.max_sessions).toBe(4); // defaults filled
    expect(effective.servers[0].version_args).toEqual(["--version"]);
    expect(effective.source).toBe(path);
    expect(lines.slice(1)).toEqual([
      "ok   environment.proc /proc mounted, of this pid namespace",
      "ok   environment.ffi libc loaded through bun:ffi",
      `ok   server.fake.command ${fakeServer}`,
      'ok   server.fake.version "fake-ls 2.0.1"',
      `ok   workspace.app.root ${root}`,
    ]);
  });

  test("mismatched version: exit 2 and a FAIL line with expected and actual", async () => {
    const path = writeConfig("old.toml", `command = "${fakeServer}"\nversion = "fake-ls 1.0.0"`);
    const { code, lines } = await run(path);
    expect(code).toBe(2);
    expect(lines).toContain(
      'FAIL server.fake.version expected "fake-ls 1.0.0", got "fake-ls 2.0.1"',
    );
  });

  test("missing binary: exit 2, FAIL for command and version", async () => {
    const missing = join(tmp, "gone");
    const path = writeConfig("gone.toml", `command = "${missing}"\nversion = "x"`);
    const { code, lines } = await run(path);
    expect(code).toBe(2);
    expect(lines).toContain(`FAIL server.fake.command ${missing} does not exist`);
    expect(lines.some((l) => l.startsWith("FAIL server.fake.version "))).toBe(true);
  });

  test("version_command binary is checked too", async () => {
    const path = writeConfig(
      "vc.toml",
      `command = "${fakeServer}"\nversion = "fake-ls 2.0.1"\nversion_command = ["${join(tmp, "nope")}"]`,
    );
    const { code, lines } = await run(path);
    expect(code).toBe(2);
    expect(lines).toContain(`FAIL server.fake.version_command ${join(tmp, "nope")} does not exist`);
  });

  test("a setpriv of an earlier configuration still validates and is said to be unused", async () => {
    const absent = join(tmp, "no-setpriv");
    const path = writeConfig(
      "setpriv.toml",
      `command = "${fakeServer}"\nversion = "fake-ls 2.0.1"`,
      `setpriv = "${absent}"`,
    );
    const { code, lines } = await run(path);
    expect(code).toBe(0);
    expect(lines).toContain(
      `ok   bridge.setpriv ${absent} (unused: theodolite sets the parent-death signal itself, SPEC §9.2)`,
    );
  });

  test("extra checks are appended and count toward the exit code", async () => {
    const path = writeConfig("extra.toml", `command = "${fakeServer}"\nversion = "fake-ls 2.0.1"`);
    const passing = await run(path, async (config) => [
      { ok: true, line: `ok   workspace.${config.workspaces[0]?.name}.files fine` },
    ]);
    expect(passing.code).toBe(0);
    expect(passing.lines.at(-1)).toBe("ok   workspace.app.files fine");
    const failing = await run(path, async () => [{ ok: false, line: "FAIL extra" }]);
    expect(failing.code).toBe(2);
    expect(failing.lines.at(-1)).toBe("FAIL extra");
  });

  test("invalid config: ConfigInvalid is thrown and nothing is printed", async () => {
    const path = writeConfig("bad.toml", `command = "fake-ls"\nversion = "x"`);
    const lines: string[] = [];
    let caught: unknown;
    try {
      await runCheckConfig(path, (l) => lines.push(l));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BridgeError);
    expect((caught as BridgeError).code).toBe("ConfigInvalid");
    expect((caught as BridgeError).message).toStartWith(
      "server.fake.command: expected an absolute path",
    );
    expect(lines).toEqual([]);
  });
});
