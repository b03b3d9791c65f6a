/**
 * A polyglot repository served zero-config by one bridge (SPEC §2.1, §9.1): a front end
 * (HTML, CSS/SCSS/Less, Svelte, Astro, GraphQL), a PHP and a Python service, infrastructure
 * (a Dockerfile, CMake, SQL), configuration (JSON, YAML, TOML), scripts (one routed by its
 * `#!` line) and a LaTeX paper. Discovery finds every server .ci/setup-servers installed,
 * one per language and role, saying why; then every language answers hover or document
 * symbols, and diagnostics, through at most `max_sessions` (4) live sessions — the others
 * are evicted and started again when called. Time and memory of this case are measured by
 * bench/polyglot.ts (docs/PERFORMANCE.md).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findPreset } from "../../src/config/presets.ts";
import type { DiscoveredPreset } from "../../src/config/types.ts";
import { type BridgeHandle, closeAllBridges, startBridge } from "../support/bridge.ts";
import { POLYGLOT_CALLS, POLYGLOT_SERVERS, polyglotPath } from "../support/polyglot.ts";
import { ok, UNDER_CI } from "../support/real-bridge.ts";
import { copyFixture, SETUP_HINT, skipLoudly } from "../support/real-servers.ts";
import { removeTempDir, removeTempDirs } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";

/** Every server of the fixture is on the PATH (the language suites report which one is not). */
const installed = POLYGLOT_SERVERS.every((name) =>
  findPreset(name)?.binaries.some((b) => Bun.which(b, { PATH: polyglotPath() }) !== null),
);
if (!installed) skipLoudly("the polyglot zero-config suite", `a server is missing — ${SETUP_HINT}`);

interface Status {
  bridge: {
    config: string;
    max_sessions: number;
    live_sessions: number;
    discovery: { servers: DiscoveredPreset[]; scan: { interpreters?: string[] } };
  };
  sessions: { server: string; state: string; epoch: number }[];
}

describe.skipIf(!installed && !UNDER_CI)("the polyglot fixture, zero-config", () => {
  let root: string;
  let bridge: BridgeHandle;
  beforeAll(async () => {
    root = copyFixture("polyglot");
    bridge = await startBridge({ args: [], cwd: root, env: { PATH: polyglotPath() } });
  });
  afterAll(async () => {
    await closeAllBridges();
    removeTempDirs();
    removeTempDir(root);
  });

  const status = async () => (await ok(bridge, "session_status")) as unknown as Status;

  test("discovery configures one server per language and role, and says why", async () => {
    const s = await status();
    expect(s.bridge.config).toBe("zero-config");
    const configured = s.bridge.discovery.servers.filter((r) => r.status === "configured");
    expect(configured.map((r) => r.name)).toEqual(POLYGLOT_SERVERS);
    const why = (name: string) => s.bridge.discovery.servers.find((r) => r.name === name)?.why;
    // by name and by #! line
    expect(why("docker-langserver")).toBe("`Dockerfile` here");
    expect(why("cmake-language-server")).toBe("`CMakeLists.txt` here");
    expect(why("bash-language-server")).toBe(".sh/.bash files, #!bash scripts here");
    expect(s.bridge.discovery.scan.interpreters).toEqual(["bash"]);
    // the alternatives found give way, each saying to whom
    expect(why("basedpyright")).toBe(
      "pyright serves the .py files (one Python server per workspace)",
    );
    expect(why("ruff")).toStartWith("pyright diagnoses the .py files; ruff diagnoses instead");
    // astro-ls gets the TypeScript installed beside it
    expect(why("astro-ls")).toMatch(
      /^\.astro files here; TypeScript library .*typescript\/lib \(installed beside the server\)$/,
    );
    expect(s.bridge.max_sessions).toBe(4);
  });

  for (const call of POLYGLOT_CALLS) {
    test(`${call.language} (${call.server}): ${call.read.tool}${call.diagnostics ? " and diagnostics" : ""}`, async () => {
      const read = await ok(bridge, call.read.tool, call.read.args);
      if (call.read.tool === "document_symbols") {
        expect((read.symbols as unknown[]).length).toBeGreaterThan(0);
      } else if (call.language !== "SQL") {
        expect(typeof read.text === "string" && read.text.length > 0).toBe(true);
      }
      const file = call.diagnostics;
      if (file !== undefined) {
        // a server nothing settles may answer before its last publish (taplo's stages)
        const d = await waitForValue(
          async () => {
            const r = await ok(bridge, "diagnostics", { file });
            return (r.total as number) > 0 || r.settled !== false ? r : undefined;
          },
          30_000,
          { intervalMs: 100, what: `diagnostics of ${file}` },
        );
        expect(d.total as number).toBeGreaterThan(0);
      }
      const s = await status();
      expect(s.bridge.live_sessions).toBeLessThanOrEqual(4);
      expect(s.sessions.find((e) => e.server === call.server)?.state).toBe("ready");
    });
  }

  test("the evicted sessions started again when called: every language answers a second time", async () => {
    for (const call of POLYGLOT_CALLS) {
      await ok(bridge, call.read.tool, call.read.args);
    }
    const s = await status();
    expect(s.bridge.live_sessions).toBeLessThanOrEqual(4);
    // more starts than sessions: eviction happened and was recovered from
    const starts = s.sessions.reduce((n, e) => n + e.epoch, 0);
    expect(starts).toBeGreaterThan(POLYGLOT_SERVERS.length);
  });
});
