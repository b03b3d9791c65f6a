/**
 * `bun run release [--out DIR]` (README "Releases"; docs/TOOLCHAIN.md#releases): the four
 * release executables from one machine, with build.ts's flags (`bridgeBuildArgs`), into
 * DIR (default dist/release): theodolite-linux-x64, -linux-arm64, -linux-x64-musl,
 * -linux-arm64-musl; SHA256SUMS in `sha256sum -c` format; manifest.json (version, full
 * commit, Bun version, the flags, and per artifact its sha256 and the Bun runtime it
 * embeds, with that runtime's sha256). Bun fetches the other targets' runtimes from the
 * npm registry into BUN_INSTALL_CACHE_DIR (default .cache/bun-runtimes), which is where
 * their digests are read.
 *
 * Refused, with one JSON line `{code, message, hint}` on stderr and exit 2, when the tree
 * is not a git checkout (`NotAGitCheckout`) or differs from its commit, untracked files
 * included (`DirtyTree`); a failed build is `BuildFailed`, exit 1. Nothing in the output
 * depends on the time, the directory or the user: two runs on the same commit and Bun
 * write the same bytes.
 */
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { bridgeBuildArgs, type GitState, gitState, sha256Hex } from "../build.ts";
import pkg from "../package.json" with { type: "json" };
import { runtimeTarget } from "../src/version.ts";

export const RELEASE_TARGETS = [
  "linux-x64",
  "linux-arm64",
  "linux-x64-musl",
  "linux-arm64-musl",
] as const;
export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

const root = join(import.meta.dir, "..");

export class ReleaseError extends Error {
  constructor(
    readonly code: "NotAGitCheckout" | "DirtyTree" | "BuildFailed" | "UsageError",
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** The tree a release may be made from, or why not. */
export function refuseUnlessClean(state: GitState): ReleaseError | null {
  if (state.commit === null) {
    return new ReleaseError(
      "NotAGitCheckout",
      "not a git checkout: a release names the commit it was built from",
      "run bun run release in a clone of the repository",
    );
  }
  if (state.changes.length === 0) return null;
  const shown = state.changes
    .slice(0, 10)
    .map((l) => l.trim())
    .join(", ");
  const more = state.changes.length > 10 ? `, … (${state.changes.length} in all)` : "";
  return new ReleaseError(
    "DirtyTree",
    `the tree differs from commit ${state.commit}: ${shown}${more}`,
    "commit or remove the changes (untracked files too), then run bun run release again",
  );
}

/** Bun's name for a target's runtime: `bun-linux-aarch64-musl-v1.4.5`. */
export function runtimeName(target: ReleaseTarget, bunVersion: string): string {
  return `bun-${target.replace("arm64", "aarch64")}-v${bunVersion}`;
}

/** The npm package that carries that runtime: `@oven/bun-linux-aarch64-musl@1.4.5`. */
export function runtimePackage(target: ReleaseTarget, bunVersion: string): string {
  return `@oven/bun-${target.replace("arm64", "aarch64")}@${bunVersion}`;
}

/**
 * Which runtime a build embedded, from what `bun build --compile` printed: it names the one
 * it fetched for another target (`compile  OUT bun-linux-aarch64-v1.4.5`) and none when it
 * used itself.
 */
export function fetchedRuntime(buildOutput: string): string | null {
  return /\bcompile\s+\S+\s+(bun-[a-z0-9-]+-v\d+\.\d+\.\d+)\s*$/m.exec(buildOutput)?.[1] ?? null;
}

export interface Artifact {
  target: ReleaseTarget;
  file: string;
  bytes: number;
  sha256: string;
  runtime: { name: string; npm: string; sha256: string };
}

/** `sha256sum -c` input: two spaces (text mode) between digest and name. */
export function sha256sums(artifacts: readonly Artifact[]): string {
  return artifacts.map((a) => `${a.sha256}  ${a.file}\n`).join("");
}

/** The flags every artifact shares, without this machine's paths or the per-target values. */
export function portableFlags(args: readonly string[]): string[] {
  const flags: string[] = [];
  for (let i = 2; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--outfile" || arg === "--define") i++;
    else if (arg.startsWith("--bytecode-order="))
      flags.push("--bytecode-order=bench/bytecode.order");
    else if (arg.startsWith("-") && !arg.startsWith("--target=")) flags.push(arg);
  }
  return flags;
}

export function manifest(commit: string, flags: string[], artifacts: readonly Artifact[]): string {
  const body = {
    name: "theodolite",
    version: pkg.version,
    commit,
    bun: Bun.version,
    flags,
    artifacts,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

function buildOne(target: ReleaseTarget, dir: string, state: GitState, cache: string) {
  const file = `theodolite-${target}`;
  const args = bridgeBuildArgs({ outfile: join(dir, file), state, target });
  const r = Bun.spawnSync(args, {
    cwd: root,
    env: { ...process.env, BUN_INSTALL_CACHE_DIR: cache },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = `${r.stdout.toString()}${r.stderr.toString()}`;
  if (!r.success) {
    throw new ReleaseError("BuildFailed", `${target}: ${output.trim()}`, "see Bun's message");
  }
  const fetched = fetchedRuntime(output);
  if (fetched === null && target !== runtimeTarget()) {
    throw new ReleaseError(
      "BuildFailed",
      `${target}: Bun did not say which runtime it embedded`,
      "check docs/TOOLCHAIN.md#releases against this Bun",
    );
  }
  const runtimeFile = fetched === null ? realpathSync(process.execPath) : join(cache, fetched);
  const bytes = readFileSync(join(dir, file));
  const artifact: Artifact = {
    target,
    file,
    bytes: bytes.length,
    sha256: sha256Hex(bytes),
    runtime: {
      name: runtimeName(target, Bun.version),
      npm: runtimePackage(target, Bun.version),
      sha256: sha256Hex(readFileSync(runtimeFile)),
    },
  };
  return { artifact, flags: portableFlags(args) };
}

function release(out: string): void {
  const state = gitState(root);
  const refused = refuseUnlessClean(state);
  if (refused !== null) throw refused;
  const cache = resolve(process.env.BUN_INSTALL_CACHE_DIR ?? join(root, ".cache", "bun-runtimes"));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const artifacts: Artifact[] = [];
  let flags: string[] = [];
  for (const target of RELEASE_TARGETS) {
    const built = buildOne(target, out, state, cache);
    artifacts.push(built.artifact);
    flags = built.flags;
    const a = built.artifact;
    process.stdout.write(`${a.sha256}  ${a.file}  (${a.bytes} bytes, ${a.runtime.name})\n`);
  }
  writeFileSync(join(out, "SHA256SUMS"), sha256sums(artifacts));
  writeFileSync(join(out, "manifest.json"), manifest(state.commit as string, flags, artifacts));
  process.stdout.write(
    `release ${pkg.version} of ${state.commit} with bun ${Bun.version} in ${out}\n` +
      `verify: cd ${out} && sha256sum -c SHA256SUMS\n`,
  );
}

function main(argv: string[]): void {
  try {
    const at = argv.indexOf("--out");
    if (argv.length > 0 && (at !== 0 || argv.length !== 2)) {
      throw new ReleaseError("UsageError", "usage: bun run release [--out DIR]", "see README");
    }
    release(resolve(at === 0 ? (argv[1] as string) : join(root, "dist", "release")));
  } catch (err) {
    if (!(err instanceof ReleaseError)) throw err;
    process.stderr.write(
      `${JSON.stringify({ code: err.code, message: err.message, hint: err.hint })}\n`,
    );
    process.exit(err.code === "BuildFailed" ? 1 : 2);
  }
}

if (import.meta.main) main(process.argv.slice(2));
