/**
 * Real open-source code for the benchmarks, beside the generated workspaces: the
 * TypeScript sources of rxjs (npm) for typescript-language-server, the C library of
 * brotli (its PyPI sdist) for clangd, and the regex crate (crates.io) for rust-analyzer —
 * projects nobody wrote for this bridge, with their own layout, overloads, macros and long
 * files. Versions are pinned, so the spots below stay where they are; each package is
 * fetched once with the machine's own `npm`, `pip` and `cargo` (their configured
 * registries) into `.cache/real-code/` (git-ignored) and unpacked. Without a registry the
 * setups are reported as not measured, like a missing server.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ServerConfig } from "../src/config/types.ts";
import {
  documentSymbolsCase,
  positionCase,
  type Setup,
  workspaceSymbolsCase,
} from "./overhead-cases.ts";

const CACHE = join(import.meta.dir, "..", ".cache", "real-code");
const FETCH_TIMEOUT_MS = 180_000;

const RXJS = "rxjs@7.8.2";
const BROTLI = "brotli==1.2.1";
const REGEX = { name: "regex", version: "1.12.3" };

function run(argv: string[], cwd: string): void {
  const r = Bun.spawnSync(argv, {
    cwd,
    stdout: "ignore",
    stderr: "pipe",
    timeout: FETCH_TIMEOUT_MS,
  });
  if (!r.success) {
    const tail = r.stderr.toString().trim().split("\n").slice(-2).join(" ");
    throw new Error(`${argv.slice(0, 3).join(" ")} failed: ${tail || `exit ${r.exitCode}`}`);
  }
}

/**
 * The unpacked package's directory, fetched on first use: `fetch` leaves one archive in
 * the directory it is given. A failed fetch leaves nothing behind, so the next run tries again.
 */
function unpacked(name: string, fetch: (into: string) => void): string {
  return cached(name, (dir) => {
    const download = join(dir, "download");
    mkdirSync(download);
    fetch(download);
    const archive = readdirSync(download).find((f) => /\.(tgz|tar\.gz)$/.test(f));
    if (archive === undefined) throw new Error(`no archive for ${name}`);
    mkdirSync(join(dir, "src"));
    run(["tar", "-xzf", join(download, archive), "-C", join(dir, "src")], dir);
  });
}

/** `<CACHE>/<name>/src`, made by `make(dir)` on first use; a failure leaves nothing behind. */
function cached(name: string, make: (dir: string) => void): string {
  const dir = join(CACHE, name);
  const done = join(dir, ".unpacked");
  if (existsSync(done)) return join(dir, "src");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    make(dir);
    writeFileSync(done, "");
    return join(dir, "src");
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The regex crate as published, its own Cargo.lock included, and every package that lock
 * names in `cargo`'s registry cache (dev-dependencies too: `cargo metadata` resolves them),
 * so rust-analyzer loads it offline. `cargo vendor` from a crate that depends on it
 * unpacks it; `cargo fetch --locked` in it fetches what it locks.
 */
export function regexCrate(cargo: string): string {
  const id = `${REGEX.name}-${REGEX.version}`;
  return cached(id, (dir) => {
    const wrapper = join(dir, "download");
    mkdirSync(join(wrapper, "src"), { recursive: true });
    writeFileSync(join(wrapper, "src", "lib.rs"), "");
    writeFileSync(
      join(wrapper, "Cargo.toml"),
      `[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n\n` +
        `[dependencies]\n${REGEX.name} = "=${REGEX.version}"\n`,
    );
    run([cargo, "vendor", "--versioned-dirs", "--quiet", "vendor"], wrapper);
    cpSync(join(wrapper, "vendor", id), join(dir, "src"), { recursive: true });
    rmSync(wrapper, { recursive: true, force: true });
    run([cargo, "fetch", "--locked"], join(dir, "src"));
  });
}

/** rxjs's npm package: `src/` (251 TypeScript files) and the tsconfig.json naming them. */
function rxjsSources(): string {
  const dir = unpacked(RXJS, (into) =>
    run(["npm", "pack", RXJS, "--pack-destination", into], into),
  );
  return join(dir, "package");
}

/** brotli's sdist: the C library under `c/` (common, dec, enc, include, tools). */
function brotliSources(): string {
  const fetch = (into: string) =>
    run(
      ["python3", "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", BROTLI, "-d", into],
      into,
    );
  const dir = unpacked(BROTLI, fetch);
  const top = readdirSync(dir).find((d) => d.startsWith("brotli-"));
  if (top === undefined) throw new Error("the brotli sdist has no top directory");
  return join(dir, top);
}

/** The project as its authors lay it out: sources and the tsconfig.json (not the built dist/). */
function materializeRxjs(from: string, root: string): void {
  mkdirSync(root, { recursive: true });
  cpSync(join(from, "src"), join(root, "src"), { recursive: true });
  cpSync(join(from, "tsconfig.json"), join(root, "tsconfig.json"));
  cpSync(join(from, "package.json"), join(root, "package.json"));
}

function cFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".c"))
    .map((f) => join(dir, f))
    .sort();
}

/** The C library and a compile_commands.json compiling each unit against its include/. */
function materializeBrotli(from: string, root: string): void {
  mkdirSync(root, { recursive: true });
  cpSync(join(from, "c"), join(root, "c"), { recursive: true });
  const commands = cFiles(join(root, "c")).map((abs) => ({
    directory: root,
    file: relative(root, abs),
    arguments: ["cc", "-std=c99", "-Ic/include", "-c", relative(root, abs)],
  }));
  writeFileSync(join(root, "compile_commands.json"), JSON.stringify(commands, null, 1));
}

/**
 * rxjs 7.8.2: an operator's body (map), the lifting helper, the subscriber every operator
 * creates, the Observable class.
 */
export function rxjsSetup(server: ServerConfig): Setup {
  const from = rxjsSources();
  const map = "src/internal/operators/map.ts";
  return {
    label: "tls rxjs",
    server,
    materialize: (root) => materializeRxjs(from, root),
    requiredArgs: () => [],
    // no cclsp: on this project cclsp 0.7 stops answering hovers within a few dozen (each
    // then ends empty after its 30 s timeout), which would stall the run
    cases: (pair) => [
      positionCase(pair, "hover", { file: map, line: 48, symbol: "operate" }),
      positionCase(pair, "definition", {
        file: "src/internal/util/lift.ts",
        line: 21,
        symbol: "hasLift",
      }),
      documentSymbolsCase(pair, "src/internal/Observable.ts"),
      workspaceSymbolsCase(pair, "Subscriber"),
      positionCase(pair, "references", {
        file: "src/internal/operators/OperatorSubscriber.ts",
        line: 15,
        symbol: "createOperatorSubscriber",
      }),
    ],
  };
}

/** brotli 1.2.1's C library: the decoder's bit reading, used throughout decode.c. */
export function brotliSetup(server: ServerConfig, requiredArgs: (root: string) => string[]): Setup {
  const from = brotliSources();
  const decode = "c/dec/decode.c";
  return {
    label: "clangd brotli",
    server,
    materialize: (root) => materializeBrotli(from, root),
    requiredArgs,
    cases: (pair) => [
      positionCase(pair, "hover", { file: decode, line: 1060, symbol: "DecodeVarLenUint8" }),
      positionCase(pair, "definition", { file: decode, line: 197, symbol: "BrotliSafeReadBits" }),
      positionCase(pair, "references", {
        file: "c/dec/bit_reader.h",
        line: 326,
        symbol: "BrotliSafeReadBits",
      }),
      documentSymbolsCase(pair, decode),
      workspaceSymbolsCase(pair, "BrotliDecoder"),
    ],
  };
}
