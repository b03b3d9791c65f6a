/**
 * `theodolite call` through the built binary (SPEC §2.2): the tool's JSON on stdout and
 * exit 0, a typed tool error's envelope on stderr and exit 1, usage and configuration
 * exit 2; `--format sarif` checked against what SARIF 2.1.0 requires of every field it
 * writes; `--isolated` leaves no bridge behind. And the private directory: a socket
 * directory open to others, someone else's or a link is refused (exit 2), and a
 * process of another user that reaches the socket is closed without an answer.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { livePidsTagged } from "../support/processes.ts";
import { sarifProblems } from "../support/sarif.ts";
import { fakeWorkspace, type SharedWorld, worldPerTest } from "../support/shared-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { runningAsRoot, unprivilegedPrefix } from "../support/unprivileged.ts";

/** fakeWorkspace's a.fake with a warning, an error and a hint published. */
const workspace = () =>
  fakeWorkspace(
    {},
    {
      publish_on_sync: [
        { message: "unused", severity: 2, line: 0, character: 6, end_character: 10, code: "W1" },
        { message: "bad", severity: 1, line: 0, character: 0, end_character: 5 },
        { message: "style", severity: 4, line: 0, character: 0, end_character: 5, code: 3 },
      ],
    },
  );

/** `theodolite call diagnostics` of a.fake as SARIF. */
const sarifCall = (config: string) => [
  "call",
  "diagnostics",
  '{"file":"a.fake"}',
  "--format",
  "sarif",
  "--config",
  config,
];

let world: SharedWorld;
worldPerTest((w) => {
  world = w;
});

describe("theodolite call", () => {
  test("exit 0 with the JSON result, 1 with a typed error on stderr, 2 for usage and configuration", async () => {
    const { config } = workspace();
    const ok = await world.run([
      "call",
      "hover",
      '{"file":"a.fake","line":1,"column":1}',
      "--config",
      config,
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toEqual({ text: "from fake", range: null });
    const missing = await world.run([
      "call",
      "hover",
      '{"file":"nope.fake","line":1,"column":1}',
      "--config",
      config,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.out).toBe("");
    expect(JSON.parse(missing.err)).toMatchObject({ code: "FileNotFound" });
    for (const args of [
      ["call", "hover", "{not json", "--config", config],
      ["call", "hover", "[1]", "--config", config],
      ["call", "hover", "{}", "--format", "sarif", "--config", config],
      ["call", "--config", config],
      ["daemon", "restart"],
      ["call", "session_status", "--config", join(tempDir(), "missing.toml")],
    ]) {
      const r = await world.run(args);
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: "" });
      expect(JSON.parse(r.err).code).toMatch(/InvalidArgument|ConfigInvalid/);
    }
  });

  test("--format sarif writes a valid SARIF 2.1.0 log of the diagnostics", async () => {
    const { config } = workspace();
    const r = await world.run(sarifCall(config));
    expect(r.code).toBe(0);
    const log = JSON.parse(r.out) as {
      runs: { results: Record<string, unknown>[]; columnKind: string; properties: unknown }[];
    };
    expect(sarifProblems(log)).toEqual([]);
    // columns in the bridge's unit (code points by default), the answer's fields beside
    expect(log.runs[0]?.columnKind).toBe("unicodeCodePoints");
    expect(log.runs[0]?.properties).toMatchObject({ files: ["a.fake"] });
    expect(log.runs[0]?.results).toEqual([
      {
        level: "error",
        message: { text: "bad" },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: "a.fake" },
              region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 6 },
            },
          },
        ],
      },
      expect.objectContaining({ ruleId: "3", level: "note", message: { text: "style" } }),
      expect.objectContaining({ ruleId: "W1", level: "warning", message: { text: "unused" } }),
    ]);
  });

  test("--format sarif says columns in UTF-16 code units for utf-16, and refuses utf-8 (SARIF has no kind for it)", async () => {
    const sarif = async (unit: string) => {
      const { config } = fakeWorkspace({ column_unit: unit });
      return await world.run(sarifCall(config));
    };
    const utf16 = await sarif("utf-16");
    expect(utf16.code).toBe(0);
    expect(JSON.parse(utf16.out).runs[0].columnKind).toBe("utf16CodeUnits");
    const utf8 = await sarif("utf-8");
    expect({ code: utf8.code, out: utf8.out }).toEqual({ code: 2, out: "" });
    expect(JSON.parse(utf8.err)).toMatchObject({
      code: "InvalidArgument",
      hint: expect.stringContaining("column_unit"),
    });
  });

  test("--isolated runs a dedicated bridge and leaves none", async () => {
    const { config } = workspace();
    const r = await world.run(["call", "session_status", "--isolated", "--config", config]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    expect(await world.status()).toEqual([]);
    // the dedicated bridge (its command line names the configuration) ended with the call
    expect(livePidsTagged(config)).toEqual([]);
  });
});

describe("the private directory", () => {
  test("a socket directory open to others, someone else's or a link is refused, exit 2", async () => {
    const { config } = workspace();
    mkdirSync(world.socketDir, { mode: 0o755 });
    chmodSync(world.socketDir, 0o755);
    for (const args of [
      ["call", "session_status", "--config", config],
      ["--config", config],
      ["daemon", "status"],
    ]) {
      const r = await world.run(args);
      expect(r.code).toBe(2);
      const env = JSON.parse(r.err);
      expect(env).toMatchObject({ code: "ConfigInvalid", details: { directory: world.socketDir } });
      expect(env.message).toContain("mode 0755");
    }
    chmodSync(world.socketDir, 0o700);
    if (runningAsRoot()) {
      const { chownSync } = await import("node:fs");
      chownSync(world.socketDir, 65534, 65534);
      const r = await world.run(["call", "session_status", "--config", config]);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.err).message).toContain("owned by uid 65534");
      chownSync(world.socketDir, 0, 0);
    }
    const elsewhere = tempDir();
    chmodSync(elsewhere, 0o700);
    const { rmSync } = await import("node:fs");
    rmSync(world.socketDir, { recursive: true });
    symlinkSync(elsewhere, world.socketDir);
    const linked = await world.run(["call", "session_status", "--config", config]);
    expect(linked.code).toBe(2);
    expect(JSON.parse(linked.err).message).toContain("symbolic link");
  });

  test.skipIf(!runningAsRoot())(
    "another user that reaches the socket is closed without an answer",
    async () => {
      const { config } = workspace();
      expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
      const bridge = await world.only();
      // open the way on purpose: only the peer check is left to refuse
      chmodSync(world.tmp, 0o755);
      chmodSync(world.socketDir, 0o755);
      chmodSync(bridge.socket, 0o777);
      // the connect itself must succeed: the kernel lets it through, the bridge closes it
      const script = [
        "import socket,sys",
        "s=socket.socket(socket.AF_UNIX)",
        "s.connect(sys.argv[1])",
        "try:",
        `  s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\\n')`,
        "  s.settimeout(10)",
        "  data=s.recv(65536)",
        "except (ConnectionResetError, BrokenPipeError):",
        "  data=b''",
        "print('closed' if data==b'' else repr(data))",
      ].join("\n");
      // the system's python: a user's shims are not for another user to run
      const python = ["/usr/bin/python3", "/bin/python3"].find((p) => existsSync(p)) ?? "python3";
      const proc = Bun.spawn([...unprivilegedPrefix(), python, "-c", script, bridge.socket], {
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, out, err] = await Promise.all([
        proc.exited,
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
      ]);
      chmodSync(world.socketDir, 0o700);
      expect({ code, out: out.trim(), err }).toEqual({ code: 0, out: "closed", err: "" });
      // and this user's clients are still served
      const mine = await world.run(["call", "session_status", "--config", config]);
      expect(mine.code).toBe(0);
    },
  );
});
