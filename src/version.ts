/**
 * Build-time constants and the provenance `--version` prints (SPEC §2). `build.ts` and
 * `.ci/release.ts` replace BUILD_VERSION / BUILD_COMMIT / BUILD_DIRTY / BUILD_TARGET with
 * `--define`; running from source falls back to package.json, "unknown" and the
 * running Bun's own target.
 */
import pkg from "../package.json" with { type: "json" };

declare const BUILD_VERSION: string | undefined;
declare const BUILD_COMMIT: string | undefined;
declare const BUILD_DIRTY: boolean | undefined;
declare const BUILD_TARGET: string | undefined;

export const VERSION: string = typeof BUILD_VERSION === "string" ? BUILD_VERSION : pkg.version;
/** The full commit the binary was built from, or "unknown" (no git, or from source). */
export const COMMIT: string = typeof BUILD_COMMIT === "string" ? BUILD_COMMIT : "unknown";
/** Whether the tree had changes or untracked files at build time; null when unknown. */
export const DIRTY: boolean | null = typeof BUILD_DIRTY === "boolean" ? BUILD_DIRTY : null;

/**
 * The Bun target this process runs as: `linux-x64`, `linux-arm64-musl`, … Bun's process
 * report names the glibc it runs on and has no such field on a musl build.
 */
export function runtimeTarget(): string {
  const report = process.report?.getReport?.() as { header?: { glibcVersionRuntime?: string } };
  const header = report?.header;
  const musl = process.platform === "linux" && header?.glibcVersionRuntime === undefined;
  return `${process.platform}-${process.arch}${musl ? "-musl" : ""}`;
}

/** The target the binary was built for; from source, the running Bun's. */
export function target(): string {
  return typeof BUILD_TARGET === "string" ? BUILD_TARGET : runtimeTarget();
}

export interface Provenance {
  name: "theodolite";
  version: string;
  commit: string;
  dirty: boolean | null;
  bun: string;
  target: string;
}

export function provenance(): Provenance {
  return {
    name: "theodolite",
    version: VERSION,
    commit: COMMIT,
    dirty: DIRTY,
    bun: Bun.version,
    target: target(),
  };
}

/**
 * SPEC §2: `theodolite X.Y.Z (commit <sha>[-dirty], bun <ver>, <target>)`. No timestamp:
 * the same tree and target give the same line, and the same bytes (docs/TOOLCHAIN.md).
 */
export function versionLine(p: Provenance = provenance()): string {
  const commit = p.dirty === true ? `${p.commit}-dirty` : p.commit;
  return `theodolite ${p.version} (commit ${commit}, bun ${p.bun}, ${p.target})`;
}

/** True when running as a `bun build --compile` executable. */
export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/");
}
