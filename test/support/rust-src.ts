/**
 * RUST_SRC_PATH for rust-analyzer offline (docs/LANGUAGE-SERVERS.md#rust-analyzer-offline).
 *
 * Given a sysroot's `lib/rustlib/src/rust/library`, rust-analyzer runs `cargo metadata`
 * on its top `Cargo.toml`, which needs crates.io; offline, std is then not linked
 * (health "warning", hover on `v.len()` is null). A directory of symlinks to every
 * entry of `library/` except that `Cargo.toml` makes it load the std crates directly.
 * The directory is created once under the OS temp dir, named by a hash of the library
 * path so different toolchains never share one, and reused by later runs.
 */
import { createHash } from "node:crypto";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/** The one entry left out: its presence makes rust-analyzer run `cargo metadata` on std. */
const EXCLUDED = new Set(["Cargo.toml"]);

/** Searched after PATH, so a machine without PATH set up still finds the system toolchain. */
const SYSTEM_BIN_DIRS = ["/usr/local/bin", "/usr/bin"];

/** `<sysroot>/lib/rustlib/src/rust/library` when it holds the std sources, else null. */
export function libraryDirOf(sysroot: string): string | null {
  const library = join(sysroot, "lib", "rustlib", "src", "rust", "library");
  return existsSync(join(library, "core", "src", "lib.rs")) ? realpathSync(library) : null;
}

/**
 * Every executable file named `name` on PATH, then in the system bin dirs, in that
 * order, deduplicated by real path (keeping the first spelling: a rustup proxy is a
 * link to `rustup`, and callers must be able to tell).
 */
export function executablesNamed(name: string): string[] {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...SYSTEM_BIN_DIRS];
  const seen = new Set<string>();
  const found: string[] = [];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      const real = realpathSync(candidate);
      if (!statSync(real).isFile() || seen.has(real)) continue;
      seen.add(real);
      found.push(candidate);
    } catch {
      // not there or not executable
    }
  }
  return found;
}

/** True when `path` is a rustup proxy (a link to the `rustup` binary). */
export function isRustupProxy(path: string): boolean {
  try {
    return /^rustup(-init)?$/.test(realpathSync(path).split("/").pop() ?? "");
  } catch {
    return false;
  }
}

/**
 * Sysroots to try, best first: the hint (e.g. the prefix of the rust-analyzer binary
 * in use, so sources match its toolchain), then `rustc --print sysroot` for each rustc
 * found, direct binaries before rustup proxies. Lazy: rustc runs only when needed.
 */
function* candidateSysroots(hint: string | undefined): Generator<string> {
  if (hint) yield hint;
  const rustcs = executablesNamed("rustc").sort(
    (a, b) => Number(isRustupProxy(a)) - Number(isRustupProxy(b)),
  );
  for (const rustc of rustcs) {
    const run = Bun.spawnSync([rustc, "--print", "sysroot"], {
      stdout: "pipe",
      stderr: "ignore",
      timeout: 15_000,
    });
    const out = run.stdout.toString().trim();
    if (run.exitCode === 0 && out) yield out;
  }
}

/** True when `dir` already mirrors `library` (every entry linked, Cargo.toml absent). */
function isComplete(dir: string, library: string, entries: string[]): boolean {
  if (!existsSync(dir) || existsSync(join(dir, "Cargo.toml"))) return false;
  return entries.every((entry) => {
    try {
      return readlinkSync(join(dir, entry)) === join(library, entry);
    } catch {
      return false;
    }
  });
}

/**
 * Create (once) and return a RUST_SRC_PATH directory for the first sysroot that has std
 * sources, or null when none has them (install `rust-web-src`, or `rustup component add
 * rust-src`). `sysrootHint` is tried first.
 */
export function prepareRustSrcPath(sysrootHint?: string): string | null {
  let library: string | null = null;
  for (const sysroot of candidateSysroots(sysrootHint)) {
    library = libraryDirOf(sysroot);
    if (library) break;
  }
  if (!library) return null;

  const entries = readdirSync(library)
    .filter((e) => !EXCLUDED.has(e))
    .sort();
  const digest = createHash("sha256").update(library).digest("hex").slice(0, 16);
  const target = join(realpathSync(tmpdir()), `theodolite-rust-src-${digest}`);
  if (isComplete(target, library, entries)) return target;

  // Build beside the target, then rename: a concurrent test run never sees half a dir.
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const entry of entries) symlinkSync(join(library, entry), join(staging, entry));
  rmSync(target, { recursive: true, force: true });
  try {
    renameSync(staging, target);
  } catch (err) {
    // Another process won the race; its directory is equivalent.
    rmSync(staging, { recursive: true, force: true });
    if (!isComplete(target, library, entries)) throw err;
  }
  return target;
}

/** The sysroot a toolchain binary lives in: `<sysroot>/bin/<tool>` → `<sysroot>`. */
export function sysrootOfBinary(binary: string): string {
  return dirname(dirname(realpathSync(binary)));
}
