/**
 * The release command (README "Releases"; docs/TOOLCHAIN.md#releases): its pure parts, and
 * its refusals run for real in a throwaway repository holding the scripts — a tree with a
 * change, an untracked file, or no git at all never gets built. Building the four targets
 * twice and running them is .ci/release-check.ts's (it needs qemu and musl from
 * .ci/setup-cross).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Artifact,
  fetchedRuntime,
  portableFlags,
  RELEASE_TARGETS,
  refuseUnlessClean,
  runtimeName,
  runtimePackage,
  sha256sums,
} from "../../.ci/release.ts";
import { bridgeBuildArgs, provenanceDefines } from "../../build.ts";
import { REPO } from "../support/bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
afterAll(removeTempDirs);

describe("pure parts", () => {
  test("a clean checkout is released; a change or no git is refused with its code", () => {
    expect(refuseUnlessClean({ commit: SHA, changes: [] })).toBeNull();
    const dirty = refuseUnlessClean({ commit: SHA, changes: [" M src/main.ts", "?? stray.ts"] });
    expect(dirty?.code).toBe("DirtyTree");
    expect(dirty?.message).toBe(`the tree differs from commit ${SHA}: M src/main.ts, ?? stray.ts`);
    const many = Array.from({ length: 12 }, (_, i) => `?? f${i}`);
    expect(refuseUnlessClean({ commit: SHA, changes: many })?.message).toEndWith(
      "?? f9, … (12 in all)",
    );
    expect(refuseUnlessClean({ commit: null, changes: [] })?.code).toBe("NotAGitCheckout");
  });

  test("the four targets, Bun's runtime names and npm packages for them", () => {
    expect([...RELEASE_TARGETS]).toEqual([
      "linux-x64",
      "linux-arm64",
      "linux-x64-musl",
      "linux-arm64-musl",
    ]);
    expect(runtimeName("linux-arm64-musl", "1.4.5")).toBe("bun-linux-aarch64-musl-v1.4.5");
    expect(runtimePackage("linux-x64", "1.4.5")).toBe("@oven/bun-linux-x64@1.4.5");
  });

  test("which runtime a build embedded, from what bun build printed", () => {
    expect(fetchedRuntime(" [297ms] compile  /o/t bun-linux-aarch64-v1.4.5\n")).toBe(
      "bun-linux-aarch64-v1.4.5",
    );
    expect(fetchedRuntime(" [178ms] compile  /o/theodolite-linux-x64\n")).toBeNull();
  });

  test("SHA256SUMS is sha256sum -c input", () => {
    const a = { sha256: "ab".repeat(32), file: "theodolite-linux-x64" } as Artifact;
    expect(sha256sums([a])).toBe(`${"ab".repeat(32)}  theodolite-linux-x64\n`);
  });

  test("every target is built with build.ts's flags; the manifest's list holds no path", () => {
    const state = { commit: SHA, changes: [] };
    const arm = bridgeBuildArgs({ outfile: "/x/out", state, target: "linux-arm64" });
    const own = bridgeBuildArgs({ outfile: "/x/out", state });
    expect(arm.filter((a) => !a.startsWith("--target=") && !a.startsWith("BUILD_TARGET="))).toEqual(
      own.filter((a) => !a.startsWith("BUILD_TARGET=")),
    );
    expect(arm).toContain("--target=bun-linux-arm64");
    expect(portableFlags(arm)).toEqual([
      "--compile",
      "--minify",
      "--bytecode",
      "--format=esm",
      "--compile-jit-policy=10000",
      "--bytecode-order=bench/bytecode.order",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
    ]);
    expect(provenanceDefines(state, "linux-arm64")).toMatchObject({
      BUILD_COMMIT: JSON.stringify(SHA),
      BUILD_DIRTY: "false",
      BUILD_TARGET: '"linux-arm64"',
    });
  });
});

describe("refusals, run", () => {
  /** A git repository holding the release scripts and what they import, committed. */
  function scriptsRepo(): string {
    const dir = tempDir("theodolite-release-");
    for (const file of [".ci/release.ts", "build.ts", "package.json", "src/version.ts"]) {
      mkdirSync(join(dir, file, ".."), { recursive: true });
      cpSync(join(REPO, file), join(dir, file));
    }
    const git = (...args: string[]) =>
      Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "scripts");
    return dir;
  }

  function release(dir: string) {
    const r = Bun.spawnSync([process.execPath, ".ci/release.ts"], {
      cwd: dir,
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: r.exitCode, err: r.stderr.toString(), out: r.stdout.toString() };
  }

  test("an untracked file, then a changed one: DirtyTree naming them, exit 2, nothing built", () => {
    const dir = scriptsRepo();
    writeFileSync(join(dir, "stray.ts"), "");
    const untracked = release(dir);
    expect(untracked.code).toBe(2);
    expect(untracked.out).toBe("");
    expect(JSON.parse(untracked.err)).toMatchObject({ code: "DirtyTree" });
    expect(untracked.err).toContain("?? stray.ts");
    rmSync(join(dir, "stray.ts"));
    writeFileSync(join(dir, "src/version.ts"), "// changed\n", { flag: "a" });
    const changed = release(dir);
    expect(changed.code).toBe(2);
    expect(changed.err).toContain("M src/version.ts");
  });

  test("no git checkout: NotAGitCheckout, exit 2", () => {
    const dir = scriptsRepo();
    rmSync(join(dir, ".git"), { recursive: true });
    const r = release(dir);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.err)).toMatchObject({ code: "NotAGitCheckout" });
  });
});
