/**
 * Build-time constants. `build.ts` replaces BUILD_VERSION / BUILD_COMMIT with
 * `--define`; running from source falls back to package.json and "unknown".
 */
import pkg from "../package.json" with { type: "json" };

declare const BUILD_VERSION: string | undefined;
declare const BUILD_COMMIT: string | undefined;

export const VERSION: string = typeof BUILD_VERSION === "string" ? BUILD_VERSION : pkg.version;
export const COMMIT: string = typeof BUILD_COMMIT === "string" ? BUILD_COMMIT : "unknown";

/** SPEC §2: `theodolite X.Y.Z (commit <sha12>, bun <ver>, <os>-<arch>)`. No timestamp. */
export function versionLine(): string {
  return `theodolite ${VERSION} (commit ${COMMIT}, bun ${Bun.version}, ${process.platform}-${process.arch})`;
}

/** True when running as a `bun build --compile` executable. */
export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/");
}
