/**
 * SPEC §2/§3: locating, reading and parsing bridge.toml; a full round trip; the shipped
 * example keeps parsing; every preset is a valid server block.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { loadConfigFile, parseConfigText, resolveConfigPath } from "../../../src/config/load.ts";
import { PRESETS, presetServerTable } from "../../../src/config/presets.ts";
import type { Config } from "../../../src/config/types.ts";
import { validateConfig } from "../../../src/config/validate.ts";
import { bridgeWith, readyWith, serverWith } from "../../support/config-defaults.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { thrown } from "../../support/thrown.ts";

const tmp = tempDir("theodolite-load-");
const rootA = join(tmp, "app");
const rootB = join(tmp, "lib");
mkdirSync(rootA);
mkdirSync(rootB);
afterAll(removeTempDirs);

describe("resolveConfigPath (SPEC §2)", () => {
  test("--config wins over THEODOLITE_CONFIG", () => {
    expect(resolveConfigPath("a.toml", { THEODOLITE_CONFIG: "b.toml" })).toBe("a.toml");
  });
  test("THEODOLITE_CONFIG when no --config", () => {
    expect(resolveConfigPath(undefined, { THEODOLITE_CONFIG: "b.toml" })).toBe("b.toml");
  });
  test("neither: undefined (zero-config mode)", () => {
    expect(resolveConfigPath(undefined, {})).toBeUndefined();
    expect(resolveConfigPath(undefined, { THEODOLITE_CONFIG: "" })).toBeUndefined();
  });
});

const FULL_TOML = `
[bridge]
max_sessions = 2
shutdown_grace_ms = 500
request_timeout_ms = 1000
ready_timeout_ms = 5000
max_result_bytes = 4096
max_file_bytes = 1024
max_open_documents = 8
column_unit = "utf-16"
mutation = "gated"
mutation_allowlist = ["ci-gate"]
setpriv = "/sbin/setpriv"
max_query_length = 64
max_limit = 50
max_watches = 100
max_server_message_bytes = 1048576
state_dir = "${tmp}/state"

[bridge.log]
level = "debug"
file = "${tmp}/bridge.log"
max_bytes = 10000
max_files = 5

[[workspace]]
name = "app"
root = "${rootA}"
servers = ["clangd"]
file_dirs = { "compile_commands.json" = "build" }

[[workspace]]
name = "lib"
root = "${rootB}"
servers = ["clangd", "ra"]

[[server]]
name = "clangd"
command = "/opt/llvm/bin/clangd"
args = ["--background-index"]
version = "clangd version 19.1.0"
version_args = ["--version"]
languages = ["c", "cpp"]
extensions = { c = "c", cpp = "cpp" }
roles = ["semantics", "diagnostics"]
env = { CLANGD_FLAGS = "" }
env_passthrough = ["CC"]
initialization_options = { fallbackFlags = ["-std=c++20"] }
settings = { clangd = { checkUpdates = false } }
diagnostics_settle = "publish"
position_encoding = "utf-32"
line_terminators = ["lf"]
answer_line_terminators = ["cr", "lf", "crlf"]

[server.ready]
quiescent = false
progress = ["backgroundIndexProgress"]
progress_required = true
warmup_open = "**/*.cpp"
log_message = "indexed \\\\d+"
probe = { method = "workspace/symbol", params = { query = "main" } }

[[server.requires]]
file = "compile_commands.json"
format = "compile_commands"
dir_arg = "--compile-commands-dir={dir}"
hint = "run cmake"

[[server]]
name = "ra"
command = "/opt/ra"
version = "rust-analyzer 1.96.0"
version_command = ["/opt/ra-version", "-V"]
languages = ["rust"]
roles = ["semantics"]
diagnostics_settle = "quiescent"
[server.ready]
quiescent = true
`;

describe("parseConfigText", () => {
  test("full round trip: every key as written", () => {
    // the keys FULL_TOML writes; the rest are the schema's defaults
    const expected: Config = {
      bridge: bridgeWith({
        max_sessions: 2,
        shutdown_grace_ms: 500,
        request_timeout_ms: 1000,
        ready_timeout_ms: 5000,
        max_result_bytes: 4096,
        max_file_bytes: 1024,
        max_open_documents: 8,
        column_unit: "utf-16",
        mutation: "gated",
        mutation_allowlist: ["ci-gate"],
        setpriv: "/sbin/setpriv",
        max_query_length: 64,
        max_limit: 50,
        max_watches: 100,
        max_server_message_bytes: 1048576,
        state_dir: `${tmp}/state`,
        shared: true,
        shared_idle_seconds: 300,
        log: { level: "debug", file: `${tmp}/bridge.log`, max_bytes: 10000, max_files: 5 },
      }),
      workspaces: [
        {
          name: "app",
          root: rootA,
          servers: ["clangd"],
          file_dirs: { "compile_commands.json": "build" },
          incidental: [],
        },
        { name: "lib", root: rootB, servers: ["clangd", "ra"], file_dirs: {}, incidental: [] },
      ],
      servers: [
        serverWith(
          {
            name: "clangd",
            command: "/opt/llvm/bin/clangd",
            version: "clangd version 19.1.0",
            languages: ["c", "cpp"],
            roles: ["semantics", "diagnostics"],
          },
          {
            args: ["--background-index"],
            version_args: ["--version"],
            extensions: { c: "c", cpp: "cpp" },
            env: { CLANGD_FLAGS: "" },
            env_passthrough: ["CC"],
            initialization_options: { fallbackFlags: ["-std=c++20"] },
            settings: { clangd: { checkUpdates: false } },
            ready: readyWith({
              quiescent: false,
              progress: ["backgroundIndexProgress"],
              progress_required: true,
              warmup_open: "**/*.cpp",
              log_message: "indexed \\d+",
              probe: { method: "workspace/symbol", params: { query: "main" } },
            }),
            diagnostics_settle: "publish",
            position_encoding: "utf-32",
            line_terminators: ["lf"],
            answer_line_terminators: ["cr", "lf", "crlf"],
            requires: [
              {
                file: "compile_commands.json",
                format: "compile_commands",
                dir_arg: "--compile-commands-dir={dir}",
                private_copy: false,
                hint: "run cmake",
              },
            ],
          },
        ),
        serverWith(
          {
            name: "ra",
            command: "/opt/ra",
            version: "rust-analyzer 1.96.0",
            languages: ["rust"],
            roles: ["semantics"],
          },
          {
            version_command: ["/opt/ra-version", "-V"],
            ready: readyWith({ quiescent: true }),
            diagnostics_settle: "quiescent",
          },
        ),
      ],
      source: "full.toml",
    };
    const config = parseConfigText(FULL_TOML, "full.toml");
    expect(config).toEqual(expected);
    // JSON round trip: the effective config is plain data
    expect(JSON.parse(JSON.stringify(config))).toEqual(expected);
  });

  test("TOML syntax error: ConfigInvalid with line and column", () => {
    const err = thrown(() => parseConfigText("[bridge]\nmax_sessions = \n", "bad.toml"));
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toMatch(/^bad\.toml:2:\d+: TOML syntax error/);
    expect(err.details?.line).toBe(2);
    expect(typeof err.details?.column).toBe("number");
  });

  test("duplicate key is a syntax error", () => {
    const err = thrown(() =>
      parseConfigText("[bridge]\nmax_sessions = 1\nmax_sessions = 2\n", "d"),
    );
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toMatch(/^d:3:\d+: TOML syntax error/);
  });

  test("an integer beyond 2^53 is rejected, not rounded", () => {
    const text = FULL_TOML.replace(
      "max_file_bytes = 1024",
      "max_file_bytes = 99999999999999999999",
    );
    const err = thrown(() => parseConfigText(text, "big"));
    expect(err.message).toStartWith("bridge.max_file_bytes: expected an integer >= 1");
  });

  test("a TOML date where a number belongs is named", () => {
    const text = FULL_TOML.replace("max_limit = 50", "max_limit = 2024-01-01");
    const err = thrown(() => parseConfigText(text, "date"));
    expect(err.message).toBe(
      "bridge.max_limit: expected an integer in 1..10000, got a date (2024-01-01)",
    );
  });
});

describe("loadConfigFile", () => {
  test("reads and validates a file; source is the absolute path", () => {
    const file = join(tmp, "bridge.toml");
    writeFileSync(file, FULL_TOML);
    expect(loadConfigFile(file).source).toBe(file);
  });

  test("missing file: ConfigInvalid", () => {
    const err = thrown(() => loadConfigFile(join(tmp, "absent.toml")));
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toContain("does not exist");
    expect(err.details?.path).toBe(join(tmp, "absent.toml"));
  });

  test("a directory: ConfigInvalid (unreadable)", () => {
    const err = thrown(() => loadConfigFile(tmp));
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toContain("cannot be read");
  });

  test("not UTF-8: ConfigInvalid", () => {
    const file = join(tmp, "latin1.toml");
    writeFileSync(file, Buffer.from([0x23, 0x20, 0xe9, 0x0a]));
    const err = thrown(() => loadConfigFile(file));
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toContain("not valid UTF-8");
  });
});

describe("bridge.toml.example", () => {
  const examplePath = join(import.meta.dir, "..", "..", "..", "bridge.toml.example");

  test("parses once its paths point at this machine", () => {
    const text = readFileSync(examplePath, "utf8")
      .replace(/^(command\s*=\s*)"[^"]*"/gm, `$1${JSON.stringify(process.execPath)}`)
      .replace(/^(root\s*=\s*)"[^"]*"/gm, `$1${JSON.stringify(rootA)}`);
    const config = parseConfigText(text, examplePath);
    expect(config.workspaces.map((w) => w.name)).toEqual(["app", "tools"]);
    expect(config.servers.every((s) => s.command === process.execPath)).toBe(true);
    // every preset appears as a [[server]] block
    expect(config.servers.map((s) => s.name).sort()).toEqual(PRESETS.map((p) => p.name).sort());
  });

  test("the [bridge] values it shows are the defaults", () => {
    const text = readFileSync(examplePath, "utf8").replace(
      /^(root\s*=\s*)"[^"]*"/gm,
      `$1${JSON.stringify(rootA)}`,
    );
    const fromExample = parseConfigText(text, "example").bridge;
    const defaults = validateConfig(
      {
        workspace: [{ name: "w", root: rootA, servers: ["s"] }],
        server: [
          { name: "s", command: "/s", version: "1", languages: ["x"], roles: ["semantics"] },
        ],
      },
      "defaults",
    ).bridge;
    expect(fromExample).toEqual(defaults);
  });
});

describe("presets", () => {
  test.each(PRESETS.map((p) => [p.name, p] as const))(
    "%s is a valid server block that validates back to the preset",
    (_n, p) => {
      const versionCommand = p.versionCommand?.("/opt/bin/x") ?? null;
      const config = validateConfig(
        {
          workspace: [{ name: "w", root: rootA, servers: [p.name] }],
          server: [presetServerTable(p, "/opt/bin/x", "x 1.0", versionCommand)],
        },
        "preset",
      );
      expect(config.servers).toEqual([
        {
          ...p.server,
          name: p.name,
          command: "/opt/bin/x",
          version: "x 1.0",
          version_command: versionCommand,
        },
      ]);
    },
  );

  test.each(PRESETS.map((p) => [p.name, p] as const))(
    "%s survives TOML stringify and parse (theodolite init)",
    (_n, p) => {
      const raw = {
        workspace: [{ name: "w", root: rootA, servers: [p.name] }],
        server: [presetServerTable(p, "/opt/bin/x", "x 1.0", ["/opt/bin/x-version", "--version"])],
      };
      const viaToml = parseConfigText(stringify(raw), "init");
      expect(viaToml).toEqual({ ...validateConfig(raw, "direct"), source: "init" });
      expect(viaToml.servers[0]?.version_command).toEqual(["/opt/bin/x-version", "--version"]);
    },
  );

  test("pyright takes its version from the sibling pyright CLI", () => {
    const pyright = PRESETS.find((p) => p.name === "pyright");
    const bin = join(tmp, "bin");
    mkdirSync(bin, { recursive: true });
    expect(pyright?.versionCommand?.(join(bin, "pyright-langserver"))).toBeNull();
    writeFileSync(join(bin, "pyright"), "");
    expect(pyright?.versionCommand?.(join(bin, "pyright-langserver"))).toEqual([
      join(bin, "pyright"),
      "--version",
    ]);
  });

  test("typescript-language-server disables typings acquisition at the top level", () => {
    const tls = PRESETS.find((p) => p.name === "typescript-language-server");
    expect(tls?.server.initialization_options.disableAutomaticTypingAcquisition).toBe(true);
  });

  test("readiness progress patterns match the titles the servers send", () => {
    const titleOf = (name: string, title: string) =>
      PRESETS.find((p) => p.name === name)?.server.ready.progress.some((re) =>
        new RegExp(re).test(title),
      );
    expect(titleOf("typescript-language-server", "Initializing JS/TS language features…")).toBe(
      true,
    );
    expect(titleOf("gopls", "Setting up workspace")).toBe(true);
    expect(titleOf("clangd", "backgroundIndexProgress")).toBe(true);
    const pyright = PRESETS.find((p) => p.name === "pyright")?.server.ready.log_message ?? "";
    expect(new RegExp(pyright).test("Found 12 source files")).toBe(true);
  });
});
