/**
 * Builds the single executable (SPEC §1; docs/TOOLCHAIN.md#building-the-executable-buildts):
 * `bun build --compile`
 * with --minify --bytecode --format=esm (fast start; bytecode needs ESM), a JIT policy and
 * the recorded bytecode layout, no
 * .env / bunfig.toml autoload (a bridge started in a user's project must not
 * read their files), version and commit embedded. Writes dist/theodolite and
 * dist/theodolite.sha256 in `sha256sum` format.
 *
 * `bun build.ts --unminified --outfile PATH`: the same build without --minify, to PATH and
 * without a checksum — for profiling the shipped tiers by module (bench/profile.ts
 * --cpu-prof); never a release. `compileArgs` and `JIT_POLICY` are exported so that
 * bench/floor.ts compiles its relay with the same flags.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "./package.json" with { type: "json" };

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
}): string[] {
  return [
    process.execPath,
    "build",
    "--compile",
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

function gitCommit(): string {
  const r = Bun.spawnSync(["git", "rev-parse", "HEAD"], {
    cwd: root,
    stdout: "pipe",
    stderr: "ignore",
  });
  const sha = r.success ? r.stdout.toString().trim() : "";
  return /^[0-9a-f]{40}$/.test(sha) ? sha.slice(0, 12) : "unknown";
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
  const commit = gitCommit();
  mkdirSync(dist, { recursive: true });
  const args = compileArgs({
    entry: join(root, "src", "main.ts"),
    outfile: out,
    minify: !unminified,
    jitPolicy: JIT_POLICY,
    bytecodeOrder: true,
    defines: {
      BUILD_VERSION: JSON.stringify(pkg.version),
      BUILD_COMMIT: JSON.stringify(commit),
    },
  });
  const build = Bun.spawnSync(args, { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (!build.success) {
    process.stderr.write(`build failed (exit ${build.exitCode})\n`);
    process.exit(1);
  }
  if (unminified) {
    process.stdout.write(`built ${out} (unminified, for profiling)\n`);
    process.exit(0);
  }
  const digest = new Bun.CryptoHasher("sha256").update(readFileSync(out)).digest("hex");
  writeFileSync(join(dist, "theodolite.sha256"), `${digest}  theodolite\n`);
  process.stdout.write(`built ${out} (${pkg.version}, commit ${commit})\nsha256 ${digest}\n`);
}

if (import.meta.main) main();
