/**
 * TypeScript and JavaScript as they come, zero-config, on the real servers (SPEC §2.1,
 * §3.3): a directory without tsconfig.json answers hover and definition soon after the
 * first call (typescript-language-server reports no loading for it), also through the
 * configuration `init` writes; the first workspace_symbols of a session finds the
 * project's source, with root config files sorted before it (typescript-language-server
 * and typescript-native search the project of the file they opened), and in a package
 * laid out like a published tarball: no tsconfig, declarations and build output at the
 * top, the source under src/. And today's `npm i -g typescript typescript-language-server`
 * (TypeScript 7, which has no tsserver, beside the server) first on PATH: never a server
 * that cannot start, but typescript-native, or NoServerForFile naming what to install.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BridgeHandle,
  closeAllBridges,
  ensureBinary,
  REPO,
  startBridge,
} from "../support/bridge.ts";
import { locs, ok, requiredServer } from "../support/real-bridge.ts";
import { findTypescriptLanguageServer, findTypescriptNative } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);
const native = await requiredServer("typescript-native", findTypescriptNative);

/** typescript-language-server with its TypeScript 5.9.3 beside it (test/servers) */
const TLS_PATH = `${join(REPO, "test", "servers", "node_modules", ".bin")}:${process.env.PATH}`;
/** the repo's TypeScript 7 `tsc` only: typescript-native */
const NATIVE_PATH = `${join(REPO, "node_modules", ".bin")}:${process.env.PATH}`;
/** what a first answer may take, however the server loads: far below ready_timeout_ms */
const FIRST_ANSWER_MS = 20_000;

afterEach(closeAllBridges);
afterAll(removeTempDirs);

/** demo-ts (src/greet.ts, src/index.ts) without its tsconfig.json, plus `extra` files. */
function layout(extra: Record<string, string> = {}, keepTsconfig = false): string {
  const root = tempDir("theodolite-layout-");
  cpSync(join(REPO, "test", "fixtures", "demo-ts"), root, { recursive: true });
  if (!keepTsconfig) rmSync(join(root, "tsconfig.json"));
  for (const [rel, text] of Object.entries(extra)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const zeroConfig = (cwd: string, path: string) =>
  startBridge({ args: [], cwd, env: { PATH: path } });

/** hover and definition of `greet` in src/index.ts, the first calls of the bridge, timed. */
async function expectAnswersSoon(bridge: BridgeHandle): Promise<void> {
  const t0 = performance.now();
  const hover = await ok(bridge, "hover", { file: "src/index.ts", line: 3, symbol: "greet" });
  const def = await ok(bridge, "definition", { file: "src/index.ts", line: 3, symbol: "greet" });
  const ms = performance.now() - t0;
  expect(hover.text as string).toContain("greet(name: string, excited?: boolean): string");
  expect(locs(def)).toEqual(["src/greet.ts 2:17–2:22"]);
  expect(ms, `first answers after ${ms.toFixed(0)} ms`).toBeLessThan(FIRST_ANSWER_MS);
}

describe.skipIf(!tls)("typescript-language-server, no tsconfig.json", () => {
  test("zero-config: hover and definition within 20 s of the first call", async () => {
    await expectAnswersSoon(await zeroConfig(layout(), TLS_PATH));
  }, 60_000);

  test("the configuration `init` writes answers the same", async () => {
    const root = layout();
    const init = Bun.spawnSync([ensureBinary(), "init", root], {
      env: { PATH: TLS_PATH, HOME: process.env.HOME ?? "/" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(init.exitCode).toBe(0);
    const config = join(tempDir("theodolite-init-"), "bridge.toml");
    writeFileSync(config, init.stdout);
    await expectAnswersSoon(await startBridge({ config, cwd: root }));
  }, 60_000);

  test("a package laid out like a tarball: the first workspace_symbols reaches what src/index.ts imports", async () => {
    const root = layout({
      "package.json": '{ "name": "pkg", "type": "module", "types": "./index.d.ts" }\n',
      "compile.d.ts": "export declare function compileAll(): void;\n",
      "index.js": "export * from './src/v4/core.js';\n",
      "index.d.ts": "export * from './src/v4/core.js';\n",
      "src/index.ts": 'export * from "./v4/core.js";\n',
      "src/v4/core.ts":
        'import { deeplyNested } from "./impl/parse.js";\nexport const core = deeplyNested;\n',
      "src/v4/impl/parse.ts": "export function deeplyNested(): number {\n  return 1;\n}\n",
    });
    const bridge = await zeroConfig(root, TLS_PATH);
    const r = await ok(bridge, "workspace_symbols", { query: "deeplyNested" });
    expect((r.symbols as { file: string }[]).map((s) => s.file)).toContain("src/v4/impl/parse.ts");
  }, 60_000);
});

/** tsconfig.json includes src/ only; files sorted before src/ at the root are not its own. */
const ROOT_CONFIG_FILES = {
  "compile.d.ts": "export declare const compiled: number;\n",
  "eslint.config.js": "export default [{ rules: {} }];\n",
};

describe("a root config file before the sources: the first workspace_symbols finds a source function", () => {
  test.skipIf(!tls)(
    "typescript-language-server",
    async () => {
      const bridge = await zeroConfig(layout(ROOT_CONFIG_FILES, true), TLS_PATH);
      const r = await ok(bridge, "workspace_symbols", { query: "greet" });
      expect(r.symbols).toContainEqual(
        expect.objectContaining({ name: "greet", kind: "function", file: "src/greet.ts" }),
      );
    },
    60_000,
  );

  test.skipIf(!native)(
    "typescript-native",
    async () => {
      const bridge = await zeroConfig(layout(ROOT_CONFIG_FILES, true), NATIVE_PATH);
      const s = await ok(bridge, "session_status");
      const servers = (s.bridge as { discovery: { servers: { name: string; status: string }[] } })
        .discovery.servers;
      expect(servers.find((x) => x.name === "typescript-native")?.status).toBe("configured");
      const r = await ok(bridge, "workspace_symbols", { query: "greet" });
      expect(r.symbols).toContainEqual(
        expect.objectContaining({ name: "greet", kind: "function", file: "src/greet.ts" }),
      );
    },
    60_000,
  );
});

/**
 * An npm prefix as `npm i -g typescript typescript-language-server` leaves it today:
 * the server (test/servers' copy) with TypeScript 7 (the repo's) beside it, and `tsc` in
 * bin/ unless `withTsc` is false.
 */
function globalPrefix(withTsc = true): string {
  const prefix = tempDir("theodolite-npm-prefix-");
  const modules = join(prefix, "lib", "node_modules");
  mkdirSync(modules, { recursive: true });
  mkdirSync(join(prefix, "bin"));
  const tlsPackage = join(REPO, "test", "servers", "node_modules", "typescript-language-server");
  cpSync(tlsPackage, join(modules, "typescript-language-server"), { recursive: true });
  symlinkSync(join(REPO, "node_modules", "typescript"), join(modules, "typescript"));
  const bin = (name: string, target: string) =>
    symlinkSync(join("..", "lib", "node_modules", target), join(prefix, "bin", name));
  bin("typescript-language-server", "typescript-language-server/lib/cli.mjs");
  if (withTsc) bin("tsc", "typescript/bin/tsc");
  return join(prefix, "bin");
}

interface Row {
  name: string;
  status: string;
  command: string | null;
  why: string;
}

async function discoveryRows(bridge: BridgeHandle): Promise<Row[]> {
  const s = await ok(bridge, "session_status");
  return (s.bridge as { discovery: { servers: Row[] } }).discovery.servers;
}

/** PATH without any node_modules/.bin (`bun run` puts the repo's, with its tsc 7, first) */
const SYSTEM_PATH = (process.env.PATH ?? "")
  .split(":")
  .filter((d) => !d.includes("node_modules"))
  .join(":");

describe.skipIf(!tls || !native)(
  "global TypeScript 7 beside typescript-language-server, first on PATH",
  () => {
    test("typescript-native serves; typescript-language-server is left out saying what to install", async () => {
      const bin = globalPrefix();
      const bridge = await zeroConfig(layout({}, true), `${bin}:${SYSTEM_PATH}`);
      const rows = await discoveryRows(bridge);
      const tlsRow = rows.find((r) => r.name === "typescript-language-server");
      expect(tlsRow?.status).toBe("left_out");
      expect(tlsRow?.why).toContain("is TypeScript 7.0.2, without lib/tsserver.js");
      expect(tlsRow?.why).toContain("npm i -D typescript@5");
      expect(rows.find((r) => r.name === "typescript-native")).toMatchObject({
        status: "configured",
        command: join(bin, "tsc"),
      });
      await expectAnswersSoon(bridge);
    }, 60_000);

    test("no tsc 7 on PATH either: NoServerForFile naming what to install, never SessionDead", async () => {
      const bin = globalPrefix(false);
      const bridge = await zeroConfig(layout({}, true), `${bin}:${SYSTEM_PATH}`);
      for (let i = 0; i < 2; i++) {
        const r = await bridge.call("hover", { file: "src/index.ts", line: 3, symbol: "greet" });
        expect(r.structured.code).toBe("NoServerForFile");
        expect(String(r.structured.hint)).toContain("typescript@5");
      }
    }, 60_000);
  },
);
