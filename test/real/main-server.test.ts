/**
 * Main servers first (SPEC §2.1, §4.5, §9.1), through the compiled binary with the real
 * servers: a Go module (the `go` fixture) whose `testdata/` holds TypeScript and a shell
 * script, with the polyglot fixture's JSON, YAML, TOML, Dockerfile and CMake files — eight
 * languages, twice `max_sessions`. Zero-config ranks gopls main; `session_status {start:
 * true}` leaves it ready (the data-file servers past the slots are not started, where they
 * once evicted it); a data file's call evicts a data-file server, not gopls; and
 * `workspace_symbols` without `server` answers from gopls, where the TypeScript and shell
 * servers once made it AmbiguousServer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findPreset } from "../../src/config/presets.ts";
import type { DiscoveredPreset } from "../../src/config/types.ts";
import { type BridgeHandle, closeAllBridges, REPO } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import { polyglotPath } from "../support/polyglot.ts";
import { ok, requiredServer, UNDER_CI } from "../support/real-bridge.ts";
import {
  copyFixture,
  findTypescriptLanguageServer,
  SETUP_HINT,
  skipLoudly,
} from "../support/real-servers.ts";
import { removeTempDir, removeTempDirs } from "../support/temp-dirs.ts";
import { startZeroConfig, zeroConfigPath } from "../support/zero-config-bridge.ts";

const gopls = await requiredServer("gopls", findGopls);
const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);

const DATA_SERVERS = [
  "vscode-json-language-server",
  "yaml-language-server",
  "docker-langserver",
  "taplo",
  "cmake-language-server",
];
const PATH = `${gopls && tls ? zeroConfigPath([gopls, tls]) : ""}:${polyglotPath()}`;
const installed = [...DATA_SERVERS, "bash-language-server"].every((name) =>
  findPreset(name)?.binaries.some((b) => Bun.which(b, { PATH }) !== null),
);
if (!installed) skipLoudly("the main-server suite", `a polyglot server is missing — ${SETUP_HINT}`);

/** The go fixture, TypeScript and shell under testdata/, the polyglot fixture's data files. */
function repository(): string {
  const root = copyFixture("go");
  const polyglot = join(REPO, "test", "fixtures", "polyglot");
  for (const dir of ["config", "ci", "infra"])
    cpSync(join(polyglot, dir), join(root, dir), { recursive: true });
  cpSync(join(polyglot, "native", "CMakeLists.txt"), join(root, "CMakeLists.txt"));
  mkdirSync(join(root, "shapes", "testdata"));
  writeFileSync(
    join(root, "shapes", "testdata", "area.ts"),
    "export function TotalArea(sides: number[]): number {\n  return sides.length;\n}\n",
  );
  cpSync(join(polyglot, "scripts", "lib.sh"), join(root, "shapes", "testdata", "lib.sh"));
  return root;
}

interface Status {
  bridge: { live_sessions: number; discovery: { servers: DiscoveredPreset[] } };
  sessions: { server: string; state: string; start_error?: { code: string; message: string } }[];
}

describe.skipIf(!(gopls && tls && installed) && !UNDER_CI)(
  "a Go module with testdata and data files, zero-config",
  () => {
    let root: string;
    let bridge: BridgeHandle;
    beforeAll(async () => {
      if (!gopls || !tls) throw new Error("gopls and typescript-language-server are required");
      root = repository();
      bridge = await startZeroConfig(root, [gopls, tls], PATH);
    });
    afterAll(async () => {
      await closeAllBridges();
      removeTempDirs();
      removeTempDir(root);
    });

    const status = async (args: Record<string, unknown> = {}) =>
      (await ok(bridge, "session_status", args)) as unknown as Status;

    test("discovery ranks gopls main, the testdata languages incidental, the data files last", async () => {
      const rows = (await status()).bridge.discovery.servers.filter(
        (r) => r.status === "configured",
      );
      const tiers = Object.fromEntries(rows.map((r) => [r.name, r.tier]));
      expect(tiers).toEqual({
        gopls: "main",
        "typescript-language-server": "incidental",
        "bash-language-server": "incidental",
        ...Object.fromEntries(DATA_SERVERS.map((name) => [name, "data"])),
      });
      const files = rows.find((r) => r.name === "typescript-language-server")?.files;
      expect(files).toEqual({ project: 0, aside: 1 });
    });

    test("start: true starts by rank: gopls ready, the data-file servers past the slots not started", async () => {
      const s = await status({ start: true });
      const entry = (name: string) => s.sessions.find((e) => e.server === name);
      expect(entry("gopls")?.state).toBe("ready");
      expect(entry("gopls")?.start_error).toBeUndefined();
      expect(s.bridge.live_sessions).toBe(4);
      const ready = s.sessions.filter((e) => e.state === "ready").map((e) => e.server);
      expect(ready.sort()).toEqual(
        [
          "gopls",
          "typescript-language-server",
          "bash-language-server",
          "vscode-json-language-server",
        ].sort(),
      );
      for (const name of DATA_SERVERS.slice(1)) {
        expect(entry(name)?.state).toBe("not_started");
        expect(entry(name)?.start_error?.code).toBe("SessionLimit");
      }
    });

    test("a data file's call evicts a data-file server, never gopls", async () => {
      const r = await ok(bridge, "document_symbols", { file: "ci/pipeline.yaml" });
      expect((r.symbols as unknown[]).length).toBeGreaterThan(0);
      const s = await status();
      const state = (name: string) => s.sessions.find((e) => e.server === name)?.state;
      expect(state("gopls")).toBe("ready");
      expect(state("yaml-language-server")).toBe("ready");
      expect(state("vscode-json-language-server")).toBe("not_started");
    });

    test("workspace_symbols without server answers from gopls, not AmbiguousServer", async () => {
      const r = await ok(bridge, "workspace_symbols", { query: "TotalArea" });
      const found = (r.symbols as { name: string; file: string }[]).map(
        (x) => `${x.name} ${x.file}`,
      );
      expect(found).toEqual(["TotalArea shapes/shapes.go"]);
    });
  },
);
