/**
 * Locating the real language servers for the real-server suites (SPEC §11).
 *
 * Each `find*` looks the server up at run time (PATH, then well-known system dirs, or
 * test/servers/node_modules for the npm ones installed by .ci/setup-servers) and has
 * discovery configure it (test/support/discovered-server.ts: what zero-config serves and
 * `init` prints for that binary), then lays the few test-specific keys the fixtures need
 * over it. A server that is not there yields null and a loud "SKIPPED:" line, so a skipped
 * suite is visible in the test output.
 *
 * The fixtures these configs are used with, and their measured answers, are described in
 * test/fixtures/README.md.
 */
import { cpSync, existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Table } from "../../src/config/merge.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import { sanitizedEnv } from "../../src/process/env.ts";
import { discoveredServer, withOverlay } from "./discovered-server.ts";
import {
  executablesNamed,
  isRustupProxy,
  prepareRustSrcPath,
  sysrootOfBinary,
} from "./rust-src.ts";
import { tempDir } from "./temp-dirs.ts";

export interface RealServer {
  /** what the suites run: `discovered` with `overlay` laid over */
  config: ServerConfig;
  /** what discovery configures for this binary: what zero-config serves, `init` prints */
  discovered: ServerConfig;
  /** the test's own keys (an offline cargo, a cache of its own) */
  overlay: Table;
  /** exact version output, trimmed of trailing white space (equals `config.version`) */
  version: string;
  /** directories made for this server (its own cache), removed with the suite */
  ownDirs?: string[];
}

const TEST_DIR = dirname(import.meta.dir);
export const FIXTURES_DIR = join(TEST_DIR, "fixtures");
/** The npm-installed servers' package (pins in its package.json, installed by .ci/setup-servers). */
export const TEST_SERVERS_DIR = join(TEST_DIR, "servers");
const NODE_BIN = join(TEST_SERVERS_DIR, "node_modules", ".bin");

export const SETUP_HINT = "run .ci/setup-servers";
const VERSION_TIMEOUT_MS = 20_000;

/** Print a skip so nobody mistakes a skipped suite for a passing one. */
export function skipLoudly(server: string, why: string): void {
  console.warn(`\n*** SKIPPED: ${server} ${why} ***\n`);
}

/**
 * Run a version command the way the bridge does (sanitized env, stdin closed) and return
 * stdout trimmed of trailing white space (stderr when stdout is empty), or null when it
 * fails. The timeout is a bound that kills a hung binary, not a wait.
 */
export async function readVersion(
  argv: string[],
  server: Pick<ServerConfig, "env" | "env_passthrough">,
): Promise<string | null> {
  try {
    const proc = Bun.spawn(argv, {
      env: sanitizedEnv(server),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      timeout: VERSION_TIMEOUT_MS,
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) return null;
    const version = out.trimEnd() !== "" ? out.trimEnd() : err.trimEnd();
    return version === "" ? null : version;
  } catch {
    return null;
  }
}

/**
 * The server discovery configures for the preset's binary at `command`, with the test's own
 * keys laid over; null after a SKIPPED line when discovery does not take it, or when `refuse`
 * finds fault with its version (not the one the fixtures were measured with).
 */
export async function fromPreset(
  preset: string,
  command: string,
  opts: { overlay?: Table; refuse?: (version: string) => string | null; install?: string } = {},
): Promise<RealServer | null> {
  const d = await discoveredServer(preset, command);
  const install = opts.install ?? SETUP_HINT;
  if ("missing" in d) {
    skipLoudly(preset, `${d.missing} — ${install}`);
    return null;
  }
  const problem = opts.refuse?.(d.server.version) ?? null;
  if (problem !== null) {
    skipLoudly(preset, `${command} ${problem} — ${install}`);
    return null;
  }
  const overlay = opts.overlay ?? {};
  return {
    config: withOverlay(d.server, overlay),
    discovered: d.server,
    overlay,
    version: d.server.version,
  };
}

/** The first candidate whose version output (`path ...versionArgs`) passes `accept`. */
export async function firstWorking(
  candidates: string[],
  accept: (version: string) => boolean,
  server: Pick<ServerConfig, "env" | "env_passthrough">,
  versionArgs: string[] = ["--version"],
): Promise<{ path: string; version: string } | null> {
  for (const path of candidates) {
    const version = await readVersion([path, ...versionArgs], server);
    if (version !== null && accept(version)) return { path, version };
  }
  return null;
}

export const NO_ENV = { env: {}, env_passthrough: [] };

export async function findClangd(): Promise<RealServer | null> {
  const found = await firstWorking(
    executablesNamed("clangd").map((p) => resolve(p)),
    (v) => /clangd version \d+/.test(v),
    NO_ENV,
  );
  if (!found) {
    skipLoudly("clangd", `not found — apt-get install clangd (or ${SETUP_HINT})`);
    return null;
  }
  return fromPreset("clangd", found.path);
}

/** `<dir>/<tool>` when it is a real (non-proxy) executable there, else undefined. */
function siblingTool(binary: string, tool: string): string | undefined {
  const path = join(dirname(realpathSync(binary)), tool);
  return existsSync(path) && !isRustupProxy(path) ? path : undefined;
}

/**
 * rust-analyzer: every executable of that name on PATH (then /usr/local/bin, /usr/bin),
 * direct binaries before rustup proxies (a proxy's toolchain depends on rustup state and
 * may be missing offline; docs/LANGUAGE-SERVERS.md#rust-analyzer-rustup-proxy), the first
 * whose `--version` prints "rust-analyzer …". Offline setup
 * (docs/LANGUAGE-SERVERS.md#rust-analyzer-offline): CARGO_NET_OFFLINE, RUST_SRC_PATH, and the
 * cargo/rustc installed beside the binary so the whole toolchain is one version.
 */
export async function findRustAnalyzer(): Promise<RealServer | null> {
  const candidates = executablesNamed("rust-analyzer")
    .map((p) => resolve(p))
    .sort((a, b) => Number(isRustupProxy(a)) - Number(isRustupProxy(b)));
  const found = await firstWorking(candidates, (v) => v.startsWith("rust-analyzer "), NO_ENV);
  if (!found) {
    skipLoudly(
      "rust-analyzer",
      `not found — apt-get install rust-web-analyzer cargo-web rust-web-src (or ${SETUP_HINT})`,
    );
    return null;
  }
  const env: Record<string, string> = { CARGO_NET_OFFLINE: "true" };
  const proxy = isRustupProxy(found.path);
  const srcPath = prepareRustSrcPath(proxy ? undefined : sysrootOfBinary(found.path));
  if (srcPath) env.RUST_SRC_PATH = srcPath;
  else
    console.warn(
      "WARNING: no Rust std sources found (apt-get install rust-web-src); rust-analyzer will " +
        "not resolve std items",
    );
  if (!proxy) {
    const cargo = siblingTool(found.path, "cargo");
    const rustc = siblingTool(found.path, "rustc");
    if (cargo) env.CARGO = cargo;
    if (rustc) env.RUSTC = rustc;
  }
  // Measured on the rust fixtures: the same answers with priming off, quiescent in
  // ~1.5 s instead of ~3.2 s (test/fixtures/README.md).
  const overlay = { env, initialization_options: { cachePriming: { enable: false } } };
  return fromPreset("rust-analyzer", found.path, { overlay });
}

/** An npm-installed binary in test/servers/node_modules/.bin, as PATH would name it, or null. */
function testServerBin(name: string): string | null {
  const link = join(NODE_BIN, name);
  return existsSync(link) ? link : null;
}

/** An npm server of test/servers, configured by discovery; its version must start `expected`. */
async function npmServer(
  preset: string,
  binary: string,
  expected = "",
): Promise<RealServer | null> {
  const command = testServerBin(binary);
  if (command === null) {
    skipLoudly(preset, `not found in ${NODE_BIN} — ${SETUP_HINT}`);
    return null;
  }
  const refuse = (v: string) => (v.startsWith(expected) ? null : `prints ${JSON.stringify(v)}`);
  return fromPreset(preset, command, { refuse });
}

export function findPyright(): Promise<RealServer | null> {
  return npmServer("pyright", "pyright-langserver", "pyright ");
}

/**
 * typescript-language-server drives the TypeScript discovery pins for it: test/servers'
 * 5.9.3, installed beside it (the repo's own TypeScript 7 has no tsserver).
 */
export function findTypescriptLanguageServer(): Promise<RealServer | null> {
  return npmServer("typescript-language-server", "typescript-language-server");
}

/**
 * TypeScript 7's native server: the project's own dev dependency (`typescript` 7 in the
 * repo's node_modules, installed by `bun install`), run as `tsc --lsp --stdio`.
 */
export async function findTypescriptNative(): Promise<RealServer | null> {
  const tsc = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");
  if (!existsSync(tsc)) {
    skipLoudly("typescript-native", "the repo's typescript 7 is missing — run `bun install`");
    return null;
  }
  return fromPreset("typescript-native", resolve(tsc), { install: "run `bun install`" });
}

/** Absolute path of a fixture in the repo (read-only use: servers write caches into roots). */
export function fixturePath(name: string): string {
  return join(FIXTURES_DIR, name);
}

/** Build outputs that must never be copied along with a fixture. */
const NOT_COPIED = new Set(["target", ".cache", "node_modules", "compile_commands.json"]);

/**
 * Copy fixture `name` to `dest` (default: a new directory under the OS temp dir) and
 * return its real path. Use a copy whenever a server writes into the workspace (clangd's
 * .cache, cargo's target/) or a test edits files. A new directory is a temp dir
 * (test/support/temp-dirs.ts): `removeTempDirs` removes it.
 */
export function copyFixture(name: string, dest?: string): string {
  const dir = dest ?? tempDir(`theodolite-${name}-`);
  cpSync(fixturePath(name), dir, {
    recursive: true,
    filter: (src) => !NOT_COPIED.has(src.split("/").pop() ?? ""),
  });
  return realpathSync(dir);
}

/** The compiler named in compile_commands.json: clangd only reads its name (no --query-driver). */
function compilerPath(): string {
  return Bun.which("cc") ?? Bun.which("gcc") ?? Bun.which("clang") ?? "cc";
}

/**
 * Copy a C fixture (default "c"; also "c-errors") and write its compile_commands.json
 * from the `compile_commands.json.in` template with absolute paths ({{DIR}}, {{CC}}).
 * Returns the directory; the caller removes it.
 */
export function materializeCFixture(
  dest?: string,
  fixture: "c" | "c-errors" | "cpp" = "c",
): string {
  const dir = copyFixture(fixture, dest);
  const templatePath = join(dir, "compile_commands.json.in");
  // Values go inside JSON strings: escape them as JSON.
  const inJson = (s: string) => JSON.stringify(s).slice(1, -1);
  const text = readFileSync(templatePath, "utf8")
    .replaceAll("{{DIR}}", inJson(dir))
    .replaceAll("{{CC}}", inJson(compilerPath()));
  JSON.parse(text); // a broken template fails here, not as a puzzling clangd answer
  writeFileSync(join(dir, "compile_commands.json"), text);
  rmSync(templatePath);
  return dir;
}
