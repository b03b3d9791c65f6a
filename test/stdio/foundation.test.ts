/**
 * The compiled binary over MCP stdio (SPEC §1, §2, §4): initialize starts nothing,
 * the tool surface matches the golden file, session_status lists every
 * configured pair as not_started, invalid config exits 2 with ConfigInvalid,
 * --version has the SPEC §2 format, stdin EOF ends the process with exit code 0.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_ONLY_CODES, ERROR_CODES } from "../../src/errors.ts";
import { INSTRUCTIONS } from "../../src/mcp/conventions.ts";
import { type Provenance, runtimeTarget, versionLine } from "../../src/version.ts";
import {
  closeAllBridges,
  ensureBinary,
  fakeServer,
  REPO,
  startBridge,
  writeConfig,
} from "../support/bridge.ts";
import { descendantsOf } from "../support/processes.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { within } from "../support/wait.ts";

afterEach(async () => {
  await closeAllBridges();
  await closeRawBridges();
});
afterAll(removeTempDirs);

function twoPairConfig(bridge: Record<string, unknown> = {}): string {
  const root = tempDir();
  return writeConfig({
    bridge,
    workspace: [{ name: "app", root, servers: ["fake-a", "fake-b"] }],
    server: [fakeServer("fake-a"), fakeServer("fake-b", {}, { extensions: { b: "fake" } })],
  });
}

describe("compiled binary CLI", () => {
  test("--version prints the SPEC §2 line, naming this machine's target", () => {
    const r = Bun.spawnSync([ensureBinary(), "--version"], { stdout: "pipe", stderr: "pipe" });
    expect(r.exitCode).toBe(0);
    const line = r.stdout.toString();
    const m =
      /^theodolite (\d+\.\d+\.\d+) \(commit ([0-9a-f]{40}(-dirty)?|unknown), bun (\d+\.\d+\.\d+), ([a-z0-9-]+)\)\n$/.exec(
        line,
      );
    expect(m).not.toBeNull();
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    expect(m?.[1]).toBe(pkg.version);
    expect(m?.[4]).toBe(Bun.version);
    // build.ts builds for the Bun that runs it: the target is this machine's, whatever it is
    expect(m?.[5]).toBe(runtimeTarget());
    expect(r.stderr.toString()).toBe("");
  });

  test("--version --json says the same as the line", () => {
    const run = (args: string[]) =>
      Bun.spawnSync([ensureBinary(), ...args], { stdout: "pipe", stderr: "pipe" });
    const json = run(["--version", "--json"]);
    expect(json.exitCode).toBe(0);
    const p = JSON.parse(json.stdout.toString()) as Provenance;
    expect(Object.keys(p)).toEqual(["name", "version", "commit", "dirty", "bun", "target"]);
    expect(p.target).toBe(runtimeTarget());
    expect(p.commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
    expect(typeof p.dirty === "boolean" || p.commit === "unknown").toBe(true);
    expect(`${versionLine(p)}\n`).toBe(run(["--version"]).stdout.toString());
    expect(run(["--json"]).exitCode).toBe(2);
  });

  test("--help prints usage on stdout and exits 0", () => {
    const r = Bun.spawnSync([ensureBinary(), "--help"], { stdout: "pipe" });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.toString()).toContain("--check-config FILE");
  });

  test("an unknown argument exits 2 with a one-line JSON error", () => {
    const r = Bun.spawnSync([ensureBinary(), "--frobnicate"], { stdout: "pipe", stderr: "pipe" });
    expect(r.exitCode).toBe(2);
    expect(r.stdout.toString()).toBe("");
    const err = JSON.parse(r.stderr.toString().trim()) as { code: string; message: string };
    expect(err.code).toBe("InvalidArgument");
    expect(err.message).toContain("--frobnicate");
  });

  test("an invalid config exits 2 with ConfigInvalid naming the key, stdout empty", () => {
    const dir = tempDir();
    const path = join(dir, "bad.toml");
    writeFileSync(
      path,
      `[bridge]\nmax_sessions = 9\n[[workspace]]\nname="a"\nroot="${dir}"\nservers=["x"]\n`,
    );
    for (const args of [
      ["--config", path],
      ["--check-config", path],
    ]) {
      const r = Bun.spawnSync([ensureBinary(), ...args], {
        stdout: "pipe",
        stderr: "pipe",
        stdin: "ignore",
      });
      expect(r.exitCode).toBe(2);
      expect(r.stdout.toString()).toBe("");
      const lines = r.stderr.toString().trim().split("\n");
      const err = JSON.parse(lines[lines.length - 1] as string) as {
        code: string;
        message: string;
      };
      expect(err.code).toBe("ConfigInvalid");
      expect(err.message).toContain("bridge.max_sessions");
    }
  });

  test("THEODOLITE_CONFIG is used when --config is absent", async () => {
    const config = twoPairConfig();
    const bridge = await startBridge({ args: [], env: { THEODOLITE_CONFIG: config } });
    const r = await bridge.call("session_status");
    expect(r.isError).toBe(false);
    expect((r.structured.bridge as { config: string }).config).toBe(config);
  });
});

describe("MCP stdio", () => {
  // how fast: bench/initialize.ts (tests bound hangs, never speed)
  test("initialize starts no child process", async () => {
    const bridge = await startBridge({ config: twoPairConfig() });
    expect(descendantsOf(bridge.pid)).toEqual([]);
  });

  test("tools/list matches the golden surface (apply class only for a gated, allowlisted client)", async () => {
    const goldenPath = join(REPO, "test", "golden", "tool-surface.json");
    const gated = await startBridge({
      config: twoPairConfig({ mutation: "gated", mutation_allowlist: ["ci-gate"] }),
      clientName: "ci-gate",
    });
    const { tools } = await gated.client.listTools();
    if (process.env.UPDATE_GOLDEN === "1")
      writeFileSync(goldenPath, `${JSON.stringify(tools, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(goldenPath, "utf8")) as { name: string }[];
    expect(tools).toEqual(golden as typeof tools);
    const APPLY = ["code_action_apply", "rename_apply", "formatting_apply"];
    expect(tools.map((t) => t.name).slice(-3)).toEqual(APPLY);

    const readOnly = golden.filter((t) => !APPLY.includes(t.name));
    for (const [config, clientName] of [
      [twoPairConfig(), "ci-gate"],
      [twoPairConfig({ mutation: "gated", mutation_allowlist: ["ci-gate"] }), "someone-else"],
    ] as const) {
      const bridge = await startBridge({ config, clientName });
      const listed = await bridge.client.listTools();
      expect(listed.tools).toEqual(readOnly as typeof listed.tools);
    }
    // what a client carries in every turn: compact JSON, every tool listed, within 16 KiB
    const bytes = Buffer.byteLength(JSON.stringify({ tools: golden }));
    console.log(`tools/list (every tool): ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(16 * 1024);
  });

  test("initialize instructions state the conventions and every tool error code once", async () => {
    const bridge = await startBridge({ config: twoPairConfig() });
    const instructions = bridge.client.getInstructions() ?? "";
    expect(instructions).toBe(INSTRUCTIONS);
    for (const code of ERROR_CODES.filter((c) => !CLI_ONLY_CODES.includes(c))) {
      expect(instructions.split(new RegExp(`\\b${code}\\b`)).length - 1).toBe(1);
    }
    expect(instructions).toContain("1-based");
    expect(instructions).toContain("Box.size");
  });

  test("session_status lists every configured pair as not_started", async () => {
    const bridge = await startBridge({ config: twoPairConfig() });
    const r = await bridge.call("session_status");
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.text)).toEqual(r.structured);
    const sessions = r.structured.sessions as {
      workspace: string;
      server: string;
      state: string;
    }[];
    expect(sessions.map((s) => [s.workspace, s.server, s.state])).toEqual([
      ["app", "fake-a", "not_started"],
      ["app", "fake-b", "not_started"],
    ]);
    const facts = r.structured.bridge as Record<string, unknown>;
    expect(facts.column_unit).toBe("code-point");
    expect(facts.mutation).toBe("off");
    expect(facts.client).toBe("theodolite-tests");
    expect(facts.apply_class_registered).toBe(false);
    expect(descendantsOf(bridge.pid)).toEqual([]);
  });

  test("an error is isError with the envelope as text and no structuredContent", async () => {
    const bridge = await startBridge({ config: twoPairConfig() });
    // the SDK client validates structuredContent against the tool's output schema, which
    // describes the success result: an error must not carry any
    const r = await bridge.client.callTool({ name: "hover", arguments: { file: "missing.fake" } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    const content = r.content as { type: string; text: string }[];
    expect(content.length).toBe(1);
    const envelope = JSON.parse(content[0]?.text ?? "") as Record<string, unknown>;
    expect(Object.keys(envelope)).toEqual(["code", "message", "hint", "details"]);
    expect(envelope.code).toBe("FileNotFound");
  });

  test("unknown tools and bad arguments are typed errors", async () => {
    const bridge = await startBridge({ config: twoPairConfig() });
    const unknown = await bridge.call("edit_file", { file: "x" });
    expect(unknown.isError).toBe(true);
    expect(unknown.structured.code).toBe("UnsupportedMethod");
    const bad = await bridge.call("session_status", { start: "yes" });
    expect(bad.isError).toBe(true);
    expect(bad.structured.code).toBe("InvalidArgument");
    expect(String(bad.structured.message)).toContain("start");
    const extra = await bridge.call("session_status", { bogus: 1 });
    expect(extra.structured.code).toBe("InvalidArgument");
    const ws = await bridge.call("session_status", { workspace: "nope" });
    expect(ws.structured.code).toBe("UnknownWorkspace");
  });

  test("stdin EOF ends the bridge with exit code 0", async () => {
    // raw: the SDK's transport.close() follows EOF with SIGTERM and SIGKILL of its own
    const bridge = await RawBridge.start(twoPairConfig());
    // running sessions keep it alive: with none, an idle process would end even ignoring EOF
    expect((await bridge.call("session_status", { start: true })).isError).toBe(false);
    const t0 = performance.now();
    bridge.endStdin();
    // nothing but the EOF ends it: a bridge that ignored EOF would never exit
    const code = await within(bridge.exited, 10_000, "the bridge to exit after stdin EOF");
    console.log(`exit after stdin EOF: ${(performance.now() - t0).toFixed(1)} ms`);
    expect(code).toBe(0);
  });
});
