/**
 * Zero-config start and error texts through the compiled binary, with no real server:
 * `initialize` and `tools/list` never wait for discovery (a version command that hangs
 * does not delay them, and a bridge shut down meanwhile kills it); with no usable server
 * the bridge serves and every call gets a typed error naming what to install; error
 * texts name paths inside the call's workspace relatively, outside ones absolutely.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../../src/process/proctree.ts";
import { pathToUri } from "../../src/workspace/uri.ts";
import { closeAllBridges, fakeServer, startBridge, writeConfig } from "../support/bridge.ts";
import { fails } from "../support/real-bridge.ts";
import { copyFixture } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor, within } from "../support/wait.ts";

/** pid files of the fake version commands: a failed test must not leave one running */
const versionPidFiles: string[] = [];
afterEach(async () => {
  await closeAllBridges();
  for (const file of versionPidFiles.splice(0)) {
    const pid = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
    if (pid > 0 && isAlive(pid)) process.kill(pid, "SIGKILL");
  }
});
afterAll(removeTempDirs);

describe("zero-config start", () => {
  test("initialize and tools/list answer while discovery's version command hangs; shutting down kills it", async () => {
    const root = tempDir("theodolite-zc-hang-");
    writeFileSync(join(root, "main.c"), "int main(void) { return 0; }\n");
    const bin = tempDir("theodolite-zc-bin-");
    const pidFile = join(root, "version.pid");
    versionPidFiles.push(pidFile);
    // a `clangd` whose version command never ends; its pid as /proc names it (`$$` is 1 in
    // the check's own PID namespace, SPEC §9.2)
    const ownPid = `read -r pid _ < /proc/self/stat; echo "$pid" > "${pidFile}"`;
    writeFileSync(join(bin, "clangd"), `#!/bin/sh\n${ownPid}\nexec sleep 300\n`);
    chmodSync(join(bin, "clangd"), 0o755);
    const bridge = await within(
      startBridge({ args: [], cwd: root, env: { PATH: `${bin}:/usr/bin:/bin` } }),
      5000, // the version command's own bound is 10 s: a waiting initialize would miss this
      "initialize",
    );
    const { tools } = await within(bridge.client.listTools(), 5000, "tools/list");
    // the surface is fixed; with zero-config the apply class is off
    expect(tools.map((t) => t.name)).toContain("hover");
    expect(tools.map((t) => t.name)).not.toContain("rename_apply");
    // discovery starts after the tool list: its version command is now running
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      {
        what: "the discovery version command to start",
      },
    );
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(isAlive(pid)).toBe(true);
    await bridge.client.close(); // stdin EOF: the bridge shuts down
    await waitFor(() => !isAlive(pid), 5000, { what: "the version command to be killed" });
  });

  test("no usable server: it serves; session_status says what was looked for; calls get NoServerForFile naming what to install", async () => {
    const root = copyFixture("c", tempDir("theodolite-zc-c-"));
    writeFileSync(join(root, "notes.xyz"), "nothing serves this\n");
    const emptyPath = tempDir("theodolite-empty-path-");
    await using bridge = await startBridge({ args: [], cwd: root, env: { PATH: emptyPath } });
    const status = (await bridge.call("session_status")).structured as {
      bridge: {
        config: string;
        discovery: { servers: { name: string; status: string; why: string }[] };
      };
      sessions: unknown[];
    };
    expect(status.bridge.config).toBe("zero-config");
    expect(status.sessions).toEqual([]);
    const rows = status.bridge.discovery.servers;
    expect(rows.every((r) => r.status === "left_out")).toBe(true);
    expect(rows.find((r) => r.name === "clangd")?.why).toBe(
      "`clangd` not found in node_modules/.bin or on PATH",
    );
    expect(rows.find((r) => r.name === "pyright")?.why).toBe(
      "no .py/.pyi files or #!python/python3 scripts here",
    );

    const c = await fails(bridge, "hover", { file: join(root, "main.c"), line: 6, column: 29 });
    expect(c.code).toBe("NoServerForFile");
    expect(c.message).toContain('handles "main.c"');
    // clangd and its alternative, ccls, each with why it was left out
    expect(c.hint).toContain(".c files need clangd or ccls");
    expect(c.hint).toContain("install one of clangd, ccls");
    expect(c.hint).not.toContain("extensions");
    expect(JSON.stringify(c)).not.toContain(root);

    const other = await fails(bridge, "document_symbols", { file: "notes.xyz" });
    expect(other.code).toBe("NoServerForFile");
    expect(other.hint).toContain("no preset serves .xyz files");

    const symbols = await fails(bridge, "workspace_symbols", { query: "main" });
    expect(symbols.code).toBe("NoServerForFile");
    expect(symbols.hint).toContain("zero-config found no usable language server");
    expect(bridge.stderr()).toContain("zero-config mode: no usable language server");
  });
});

describe("error texts name workspace paths relatively (SPEC §4.6)", () => {
  test("file checks, server errors and session errors; the call's workspace only; outside stays absolute", async () => {
    const app = tempDir("theodolite-app-");
    const lib = tempDir("theodolite-lib-");
    mkdirSync(join(app, "src"));
    writeFileSync(join(app, "src", "a.fake"), "alpha\n");
    writeFileSync(join(app, "bad.fake"), Buffer.from([0xff, 0xfe, 0x00]));
    const appFile = join(app, "src", "a.fake");
    const scenario = {
      error_on: {
        "textDocument/hover": {
          code: -32603,
          message: `cannot analyse ${appFile} (${pathToUri(appFile)}); see ${lib}/x.fake`,
        },
      },
    };
    const config = writeConfig({
      workspace: [
        { name: "app", root: app, servers: ["fake"] },
        { name: "lib", root: lib, servers: ["fake"] },
      ],
      server: [fakeServer("fake", scenario)],
    });
    const bridge = await startBridge({ config });
    const hoverInApp = (file: string) =>
      fails(bridge, "hover", { workspace: "app", file, line: 1, column: 1 });
    const missing = await hoverInApp(join(app, "src", "gone.fake"));
    expect(missing.code).toBe("FileNotFound");
    expect(missing.message).toBe("src/gone.fake does not exist or is not a regular file");
    expect(missing.details?.file).toBe("src/gone.fake");

    const notUtf8 = await hoverInApp("bad.fake");
    expect(notUtf8.code).toBe("NotUtf8");
    expect(JSON.stringify(notUtf8)).not.toContain(app);

    const outside = await hoverInApp(join(lib, "x.fake"));
    expect(outside.code).toBe("PathOutsideWorkspace");
    expect(outside.message).toBe(`${join(lib, "x.fake")} is outside the workspace root`);
    // the workspace is named, not "." (its root, relative to itself)
    expect(outside.details).toEqual({ file: join(lib, "x.fake"), workspace: "app" });

    const server = await hoverInApp("src/a.fake");
    expect(server.code).toBe("ServerError");
    // inside the call's workspace: relative (path and URI); in the other workspace: absolute
    expect(server.message).toContain("cannot analyse src/a.fake (src/a.fake)");
    expect(server.message).toContain(`see ${lib}/x.fake`);
    expect(server.message).not.toContain(app);
    await bridge.close();
  });
});
