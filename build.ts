/**
 * Builds the single executable (SPEC §1; docs/TOOLCHAIN.md#building-the-executable-buildts):
 * `bun build --compile` with --minify --bytecode --format=esm (fast start; bytecode needs
 * ESM), a JIT policy and the recorded bytecode layout, no .env / bunfig.toml autoload (a
 * bridge started in a user's project must not read their files), and the provenance
 * `--version` prints embedded: version, full commit, dirty flag, target. Writes
 * dist/theodolite (for the machine's own target) and dist/theodolite.sha256 in `sha256sum`
 * format.
 *
 * `bun build.ts --unminified --outfile PATH`: the same build without --minify, to PATH and
 * without a checksum — for profiling the shipped tiers by module (bench/profile.ts
 * --cpu-prof); never a release. `.ci/release.ts` builds every release target with
 * `bridgeBuildArgs`, so the flags are defined here once; `compileArgs` and `JIT_POLICY` are
 * exported so that bench/floor.ts compiles its relay with the same flags.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "./package.json" with { type: "json" };
import { runtimeTarget } from "./src/version.ts";

const root = import.meta.dir;
const dist = join(root, "dist");

/**
 * JavaScriptCore's tier-up thresholds × 10,000 (docs/TOOLCHAIN.md#the-jit-policy): the
 * bridge's JavaScript is glue between native parsers and the kernel, run a few times per
 * call; compiling it to optimized code cost more CPU (on compiler threads that compete with
 * the servers) and memory (the optimizing compilers' own code paged in) than it saved.
 */
export const JIT_POLICY = 10_000;
/** The serve path's bytecode first in the file (docs/TOOLCHAIN.md#the-bytecode-layout). */
const BYTECODE_ORDER = join(root, "bench", "bytecode.order");

/**
 * `bun build --compile` of `entry` with the bridge's flags; `jitPolicy` 1 is
 * JavaScriptCore's own thresholds (bench/floor.ts compiles its relay both ways).
 */
export function compileArgs(opts: {
  entry: string;
  outfile: string;
  minify: boolean;
  jitPolicy: number;
  /** the recorded layout names the bridge's functions: only for the bridge */
  bytecodeOrder: boolean;
  /** identifier → JSON value, replaced at build time */
  defines?: Record<string, string>;
  /** a Bun target (`linux-arm64-musl`); without one, the running Bun's own */
  target?: string;
}): string[] {
  return [
    process.execPath,
    "build",
    "--compile",
    ...(opts.target === undefined ? [] : [`--target=bun-${opts.target}`]),
    ...(opts.minify ? ["--minify"] : []),
    "--bytecode",
    "--format=esm",
    `--compile-jit-policy=${opts.jitPolicy}`,
    ...(opts.bytecodeOrder && existsSync(BYTECODE_ORDER)
      ? [`--bytecode-order=${BYTECODE_ORDER}`]
      : []),
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    ...Object.entries(opts.defines ?? {}).flatMap(([name, value]) => [
      "--define",
      `${name}=${value}`,
    ]),
    "--outfile",
    opts.outfile,
    opts.entry,
  ];
}

export interface GitState {
  /** the full commit, or null outside a git checkout */
  commit: string | null;
  /** `git status --porcelain` lines: changed tracked files and untracked ones */
  changes: string[];
}

function git(args: string[], cwd: string): string | null {
  const r = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "ignore" });
  return r.success ? r.stdout.toString() : null;
}

/** The tree's commit and how it differs from it (ignored files do not count). */
export function gitState(cwd: string = root): GitState {
  const sha = git(["rev-parse", "HEAD"], cwd)?.trim() ?? "";
  if (!/^[0-9a-f]{40}$/.test(sha)) return { commit: null, changes: [] };
  const status = git(["status", "--porcelain", "--untracked-files=all"], cwd);
  const changes = status === null ? ["?? (git status failed)"] : status.split("\n");
  return { commit: sha, changes: changes.filter((l) => l.trim() !== "") };
}

/** The `--define`s `src/version.ts` reads: what `--version` says of this build. */
export function provenanceDefines(state: GitState, target: string): Record<string, string> {
  return {
    BUILD_VERSION: JSON.stringify(pkg.version),
    BUILD_COMMIT: JSON.stringify(state.commit ?? "unknown"),
    ...(state.commit === null ? {} : { BUILD_DIRTY: JSON.stringify(state.changes.length > 0) }),
    BUILD_TARGET: JSON.stringify(target),
  };
}

/** The bridge's build of `target` (the running Bun's own when absent) to `outfile`. */
export function bridgeBuildArgs(opts: {
  outfile: string;
  state: GitState;
  target?: string;
  minify?: boolean;
}): string[] {
  return compileArgs({
    entry: join(root, "src", "main.ts"),
    outfile: opts.outfile,
    minify: opts.minify ?? true,
    jitPolicy: JIT_POLICY,
    bytecodeOrder: true,
    defines: provenanceDefines(opts.state, opts.target ?? runtimeTarget()),
    ...(opts.target === undefined ? {} : { target: opts.target }),
  });
}

export function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

function main(): void {
  const unminified = process.argv.includes("--unminified");
  const outfileAt = process.argv.indexOf("--outfile");
  const out =
    outfileAt >= 0 ? resolve(process.argv[outfileAt + 1] ?? "") : join(dist, "theodolite");
  if (unminified !== outfileAt >= 0) {
    process.stderr.write("usage: bun build.ts  |  bun build.ts --unminified --outfile PATH\n");
    process.exit(2);
  }
  const state = gitState();
  mkdirSync(dist, { recursive: true });
  const args = bridgeBuildArgs({ outfile: out, state, minify: !unminified });
  const build = Bun.spawnSync(args, { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (!build.success) {
    process.stderr.write(`build failed (exit ${build.exitCode})\n`);
    process.exit(1);
  }
  if (unminified) {
    process.stdout.write(`built ${out} (unminified, for profiling)\n`);
    process.exit(0);
  }
  const digest = sha256Hex(readFileSync(out));
  writeFileSync(join(dist, "theodolite.sha256"), `${digest}  theodolite\n`);
  const dirty = state.changes.length > 0 ? ", dirty" : "";
  process.stdout.write(
    `built ${out} (${pkg.version}, commit ${state.commit ?? "unknown"}${dirty}, ${runtimeTarget()})\nsha256 ${digest}\n`,
  );
}

if (import.meta.main) main();
