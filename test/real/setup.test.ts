/**
 * Proof that .ci/setup-servers installed the real servers the suites drive (SPEC §11),
 * at the versions the fixtures' answers were measured with (test/fixtures/README.md),
 * and that the fixtures themselves produce the errors the README records when checked
 * by each language's own compiler or checker.
 *
 * A missing server is a loud skip on a developer machine and a failure under CI (CI set):
 * .ci/setup-servers installs every one of them (the pins of the cargo- and go-built ones
 * are in test/servers/pins.env).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import serversPkg from "../servers/package.json" with { type: "json" };
import {
  findBaconLs,
  findEmmyLua,
  findGopls,
  PINNED_VERSION_OUTPUT,
} from "../support/built-servers.ts";
import { present } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  fixturePath,
  materializeCFixture,
  type RealServer,
  TEST_SERVERS_DIR,
} from "../support/real-servers.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

// the fixture copies below
afterAll(removeTempDirs);

/**
 * Versions the fixture answers were measured with. The apt ones follow Debian 12: if a
 * Debian update moves them, re-measure test/fixtures/README.md and update these.
 */
const EXPECTED = {
  clangd: "Debian clangd version 14.0.6",
  rustAnalyzer: "rust-analyzer 1.96.0",
  pyright: `pyright ${serversPkg.dependencies.pyright}`,
  tls: serversPkg.dependencies["typescript-language-server"],
  typescript: serversPkg.dependencies.typescript,
};

const CHECK_TIMEOUT_MS = 60_000;

/** Run argv to completion (bounded), returning exit code and combined output. */
function run(argv: string[], cwd: string, env: Record<string, string> = {}) {
  const proc = Bun.spawnSync(argv, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: CHECK_TIMEOUT_MS,
  });
  return {
    code: proc.exitCode,
    stdout: proc.stdout.toString(),
    output: proc.stdout.toString() + proc.stderr.toString(),
  };
}

/** The config's own version argv, run here independently of how it was found. */
function versionOf(config: RealServer["config"]): string {
  const argv = config.version_command ?? [config.command, ...config.version_args];
  const result = run(argv, dirname(argv[0]!));
  expect(result.code).toBe(0);
  return result.stdout.trimEnd();
}

describe("real servers installed by .ci/setup-servers", () => {
  test("clangd answers --version as Debian clangd 14.0.6", async () => {
    const found = await findClangd();
    if (!present("clangd", found)) return;
    expect(isAbsolute(found.config.command)).toBe(true);
    const version = versionOf(found.config);
    expect(version).toBe(found.config.version);
    expect(version.split("\n")[0]).toBe(EXPECTED.clangd);
  });

  test("rust-analyzer is a working binary (not a dead rustup proxy) at 1.96.0", async () => {
    const found = await findRustAnalyzer();
    if (!present("rust-analyzer", found)) return;
    const version = versionOf(found.config);
    expect(version).toBe(found.config.version);
    expect(version).toBe(EXPECTED.rustAnalyzer);
    expect(found.config.env.CARGO_NET_OFFLINE).toBe("true");
  });

  test("rust-analyzer gets a RUST_SRC_PATH with std sources but no top Cargo.toml", async () => {
    const found = await findRustAnalyzer();
    if (!present("rust-analyzer", found)) return;
    const srcPath = found.config.env.RUST_SRC_PATH;
    expect(srcPath).toBeString();
    const entries = readdirSync(srcPath!);
    expect(entries).toContain("core");
    expect(entries).toContain("std");
    expect(entries).not.toContain("Cargo.toml");
    expect(existsSync(join(srcPath!, "core", "src", "lib.rs"))).toBe(true);
  });

  test(`pyright answers --version as ${EXPECTED.pyright}`, async () => {
    const found = await findPyright();
    if (!present("pyright", found)) return;
    expect(found.config.version_command?.[0]).toBe(
      join(TEST_SERVERS_DIR, "node_modules", ".bin", "pyright"),
    );
    const version = versionOf(found.config);
    expect(version).toBe(found.config.version);
    expect(version).toBe(EXPECTED.pyright);
  });

  test(`typescript-language-server ${EXPECTED.tls} drives typescript ${EXPECTED.typescript}`, async () => {
    const found = await findTypescriptLanguageServer();
    if (!present("typescript-language-server", found)) return;
    const version = versionOf(found.config);
    expect(version).toBe(found.config.version);
    expect(version).toBe(EXPECTED.tls);
    const tsserver = (found.config.initialization_options.tsserver as { path: string }).path;
    const tsPkg = JSON.parse(readFileSync(join(dirname(tsserver), "..", "package.json"), "utf8"));
    expect(tsPkg.version).toBe(EXPECTED.typescript);
    expect(found.config.initialization_options.disableAutomaticTypingAcquisition).toBe(true);
  });

  const built = [
    ["bacon-ls", findBaconLs, PINNED_VERSION_OUTPUT.baconLs],
    ["emmylua_ls", findEmmyLua, PINNED_VERSION_OUTPUT.emmyLua],
    ["gopls", findGopls, PINNED_VERSION_OUTPUT.gopls],
  ] as const;
  for (const [name, find, expected] of built) {
    test(`${name} answers its version command as ${JSON.stringify(expected)}`, async () => {
      const found = await find();
      if (!present(name, found)) return;
      expect(isAbsolute(found.config.command)).toBe(true);
      const version = versionOf(found.config);
      expect(version).toBe(found.config.version);
      expect(version).toBe(expected);
    });
  }
});

describe("fixtures produce the errors test/fixtures/README.md records", () => {
  test("materializeCFixture writes compile_commands.json with absolute, existing paths", () => {
    const dir = materializeCFixture();
    const entries = JSON.parse(readFileSync(join(dir, "compile_commands.json"), "utf8"));
    expect(entries.map((e: { file: string }) => e.file)).toEqual([
      join(dir, "main.c"),
      join(dir, "util.c"),
    ]);
    for (const e of entries) {
      expect(e.directory).toBe(dir);
      expect(existsSync(e.file)).toBe(true);
      expect(isAbsolute(e.arguments[0])).toBe(true);
    }
    expect(existsSync(join(dir, "compile_commands.json.in"))).toBe(false);
  });

  test("c fixtures: clangd --check finds no errors in c and exactly two in c-errors", async () => {
    const found = await findClangd();
    if (!present("clangd", found)) return;
    const errorsOf = (fixture: "c" | "c-errors", file: string) => {
      const dir = materializeCFixture(undefined, fixture);
      const result = run([found.config.command, `--check=${file}`, "--log=error"], dir);
      return result.output
        .split("\n")
        .map((l) => /^E\[[^\]]*\] \[(\w+)\] Line (\d+):/.exec(l))
        .filter((m) => m !== null)
        .map((m) => `${file}:${m[2]} ${m[1]}`);
    };
    expect(errorsOf("c", "main.c")).toEqual([]);
    expect(errorsOf("c", "util.c")).toEqual([]);
    expect(errorsOf("c-errors", "broken.c")).toEqual([
      "broken.c:7 undeclared_var_use_suggest",
      "broken.c:11 no_member",
    ]);
  });

  test("rust fixture: cargo check --offline --locked passes; rust-errors has E0308 and E0425", async () => {
    const found = await findRustAnalyzer();
    if (!present("rust-analyzer", found)) return;
    const cargo = found.config.env.CARGO;
    if (!cargo) throw new Error("no cargo beside rust-analyzer (apt-get install cargo-web)");
    const env = { ...found.config.env };
    for (const [name, expected] of [
      ["rust", [] as string[]],
      ["rust-errors", ["src/lib.rs:4:22: error[E0308]", "src/lib.rs:9:40: error[E0425]"]],
    ] as const) {
      const dir = copyFixture(name);
      const result = run(
        [cargo, "check", "--offline", "--locked", "--quiet", "--message-format", "short"],
        dir,
        env,
      );
      // rustc prints 1-based line and code-point column
      const errors = result.output
        .split("\n")
        .filter((l) => /^src\/.*: error\[/.test(l))
        .map((l) => l.slice(0, l.indexOf("]") + 1));
      expect(errors.sort()).toEqual([...expected]);
      expect(result.code).toBe(expected.length === 0 ? 0 : 101);
    }
  });

  test("go fixture: go build reports exactly the two errors in broken/broken.go", async () => {
    const found = await findGopls();
    if (!present("gopls", found)) return;
    const go = Bun.which("go");
    if (!go) throw new Error("go not on PATH (gopls needs it too)");
    const dir = copyFixture("go");
    const result = run([go, "build", "./..."], dir, found.config.env);
    // go prints 1-based line and byte column (ASCII lines here)
    const errors = result.output
      .split("\n")
      .filter((l) => l.startsWith("broken/"))
      .map((l) => l.split(": ")[0]);
    expect(errors).toEqual(["broken/broken.go:6:14", "broken/broken.go:7:13"]);
    expect(result.code).toBe(1);
  });

  test("python fixture: pyright reports exactly the two errors in errors.py", async () => {
    const found = await findPyright();
    if (!present("pyright", found)) return;
    const cli = found.config.version_command![0]!;
    const result = run([cli, "--outputjson", "-p", fixturePath("python")], fixturePath("python"));
    const report = JSON.parse(result.stdout) as {
      generalDiagnostics: Array<{
        file: string;
        severity: string;
        rule?: string;
        range: { start: { line: number; character: number } };
      }>;
    };
    const errors = report.generalDiagnostics
      .filter((d) => d.severity === "error")
      .map(
        (d) =>
          `${d.file.split("/").pop()}:${d.range.start.line}:${d.range.start.character} ${d.rule}`,
      );
    // pyright's CLI reports 0-based UTF-16 positions, as LSP does
    expect(errors).toEqual([
      "errors.py:2:13 reportAssignmentType",
      "errors.py:3:41 reportCallIssue",
    ]);
  });

  test("ts and demo-ts fixtures: tsc 5.9.3 reports exactly the recorded errors", async () => {
    const found = await findTypescriptLanguageServer();
    if (!present("typescript-language-server", found)) return;
    const tsc = join(TEST_SERVERS_DIR, "node_modules", "typescript", "bin", "tsc");
    const node = Bun.which("node");
    if (!node) throw new Error("node not on PATH");
    const errorsOf = (fixture: string) =>
      run(
        [node, tsc, "--noEmit", "--pretty", "false", "-p", fixturePath(fixture)],
        fixturePath(fixture),
      )
        .stdout.split("\n")
        .filter((l) => l.includes(": error TS"))
        .map((l) => l.slice(0, l.indexOf(":", l.indexOf("error TS"))));
    // tsc prints 1-based line and UTF-16 column
    expect(errorsOf("ts")).toEqual([
      "src/errors.ts(3,14): error TS2322",
      "src/errors.ts(4,59): error TS2345",
    ]);
    expect(errorsOf("demo-ts")).toEqual(["src/index.ts(4,39): error TS2345"]);
  });
});
