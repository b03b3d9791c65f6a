import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { ApplyJournal } from "../../../src/apply/journal.ts";
import { type PlannedWrite, planWrites } from "../../../src/apply/validate.ts";
import { type ApplyHooks, applyPlannedWrites } from "../../../src/apply/write.ts";
import { getFlags, readXattrs, setFlags, writeXattr } from "../../../src/ffi/file-attributes.ts";
import type { LspRange } from "../../../src/text/positions.ts";
import { readWorkspaceText } from "../../../src/workspace/confined.ts";
import { workspaceRoot } from "../../../src/workspace/files.ts";
import { edit } from "../../support/normalize-context.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { rejected } from "../../support/thrown.ts";

const MAX = 1 << 20;
afterEach(removeTempDirs);

function put(path: string, text: string, mode = 0o644): string {
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

/** Plan edits against the file as it is now on disk, the way the bridge does. */
function plan(abs: string, edits: { range: LspRange; newText: string }[]): PlannedWrite {
  const { text, sha256 } = readWorkspaceText("/", abs, MAX);
  return planWrites([{ snapshot: { abs, text, sha256 }, edits }], "utf-16")[0]!;
}

const AB = { "a.txt": "aaa\n", "b.txt": "bbb\n" };

/** A workspace of `files` (a.txt and b.txt), a plan per file writing "X" over its first character. */
function workspace(prefix: string, files: Record<string, string> = AB) {
  const root = tempDir(prefix, files);
  const paths = Object.keys(files).map((rel) => join(root, rel)) as [string, string, string];
  const plans = paths.map((f) => plan(f, [edit(0, 0, 0, 1, "X")]));
  return { root, paths, plans, a: paths[0], b: paths[1] };
}

/** Every leftover temp file under `dir`, recursively. */
function tempFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((n) =>
    n.includes(".theodolite-"),
  );
}

const mode = (p: string) => statSync(p).mode & 0o7777;

/** Inode flags (`chattr`): immutable, append-only, no-dump. */
const FLAG_IMMUTABLE = 0x10;
const FLAG_APPEND = 0x20;
const FLAG_NODUMP = 0x40;

/** Set or clear an inode flag, as `chattr` does (root may set immutable and append-only). */
function chattr(path: string, flag: number, on: boolean): void {
  const fd = openSync(path, "r");
  try {
    const flags = getFlags(fd);
    setFlags(fd, on ? flags | flag : flags & ~flag);
  } finally {
    closeSync(fd);
  }
}

/** The applier with a private record directory of the test's own. */
function apply(root: string, plans: PlannedWrite[], hooks: ApplyHooks = {}) {
  const journal = new ApplyJournal([tempDir("theodolite-state-")]);
  return applyPlannedWrites(workspaceRoot(root), plans, MAX, journal, hooks);
}

describe("applyPlannedWrites (SPEC §7.4)", () => {
  test("writes every file, keeping each one's mode and its CRLF line endings", async () => {
    const root = tempDir("theodolite-ok-");
    mkdirSync(join(root, "bin"));
    const a = put(join(root, "a.c"), "int x;\r\nint y;\r\n", 0o640);
    const b = put(join(root, "bin", "run.sh"), "#!/bin/sh\necho hi\n", 0o755);
    const plans = [plan(a, [edit(1, 4, 1, 5, "z")]), plan(b, [edit(1, 5, 1, 7, "bye")])];
    const { written } = await apply(root, plans);
    expect(written).toEqual([a, b]);
    expect(readFileSync(a, "utf8")).toBe("int x;\r\nint z;\r\n");
    expect(readFileSync(b, "utf8")).toBe("#!/bin/sh\necho bye\n");
    expect(mode(a)).toBe(0o640);
    expect(mode(b)).toBe(0o755);
    expect(tempFiles(root)).toEqual([]);
  });

  test("replaces by rename: a reader holding the old file keeps the old content", async () => {
    const root = tempDir("theodolite-rename-");
    const a = put(join(root, "a.txt"), "old\n");
    const reader = openSync(a, "r");
    try {
      await apply(root, [plan(a, [edit(0, 0, 0, 3, "new")])]);
      expect(readFileSync(reader, "utf8")).toBe("old\n");
      expect(readFileSync(a, "utf8")).toBe("new\n");
    } finally {
      closeSync(reader);
    }
  });

  test("a file whose text does not change is checked but not rewritten", async () => {
    const root = tempDir("theodolite-same-");
    const a = put(join(root, "a.txt"), "same\n");
    const b = put(join(root, "b.txt"), "bbb\n");
    const inode = statSync(a).ino;
    const { written } = await apply(root, [
      plan(a, [edit(0, 0, 0, 4, "same")]),
      plan(b, [edit(0, 0, 0, 1, "B")]),
    ]);
    expect(written).toEqual([b]);
    expect(statSync(a).ino).toBe(inode);
  });

  test("a symlink inside the workspace is followed: the target is written, the link stays", async () => {
    const root = tempDir("theodolite-innerlink-");
    const real = put(join(root, "real.txt"), "abc\n", 0o600);
    const link = join(root, "link.txt");
    symlinkSync("real.txt", link);
    const p = plan(link, [edit(0, 0, 0, 1, "A")]);
    const { written } = await apply(root, [p]);
    expect(written).toEqual([real]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe("Abc\n");
    expect(mode(real)).toBe(0o600);
  });

  test("a very long file name still gets a valid temp file name", async () => {
    const root = tempDir("theodolite-long-");
    const a = put(join(root, `${"n".repeat(250)}.c`), "x\n");
    await apply(root, [plan(a, [edit(0, 0, 0, 1, "y")])]);
    expect(readFileSync(a, "utf8")).toBe("y\n");
    expect(tempFiles(root)).toEqual([]);
  });

  test("drift: a target changed after planning → WorkspaceDrift, nothing written", async () => {
    const { root, a, b, plans } = workspace("theodolite-drift-");
    writeFileSync(b, "bbb changed\n");
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("WorkspaceDrift");
    expect(err.details).toEqual({ files: ["b.txt"] });
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(readFileSync(b, "utf8")).toBe("bbb changed\n");
    expect(tempFiles(root)).toEqual([]);
  });

  test("drift: a target deleted or turned into a directory after planning", async () => {
    const { root, paths, plans } = workspace("theodolite-gone-", { ...AB, "c.txt": "ccc\n" });
    const [a, b, c] = paths;
    rmSync(b);
    rmSync(c);
    mkdirSync(c);
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("WorkspaceDrift");
    expect(err.details).toEqual({ files: ["b.txt", "c.txt"] });
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
  });

  test("a symlink leading out of the workspace → EditInvalid, nothing written anywhere", async () => {
    const root = tempDir("theodolite-root-");
    const outside = tempDir("theodolite-outside-");
    const secret = put(join(outside, "secret.txt"), "keep me\n");
    const a = put(join(root, "a.txt"), "aaa\n");
    const link = join(root, "escape.txt");
    symlinkSync(secret, link);
    // planned while the link still looked harmless (the planner reads through it)
    const plans = [plan(a, [edit(0, 0, 0, 1, "A")]), plan(link, [edit(0, 0, 0, 4, "PWNED")])];
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("EditInvalid");
    expect((err.details as { file: string }).file).toBe("escape.txt");
    expect(readFileSync(secret, "utf8")).toBe("keep me\n");
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(tempFiles(root)).toEqual([]);
    expect(tempFiles(outside)).toEqual([]);
  });

  test("two plans reaching the same file (via a link) → EditInvalid", async () => {
    const root = tempDir("theodolite-dup-");
    const a = put(join(root, "a.txt"), "aaa\n");
    symlinkSync("a.txt", join(root, "alias.txt"));
    const plans = [
      plan(a, [edit(0, 0, 0, 1, "A")]),
      plan(join(root, "alias.txt"), [edit(0, 1, 0, 2, "B")]),
    ];
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("EditInvalid");
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
  });

  test("a target in version-control internals, named through a link → EditInvalid, nothing written", async () => {
    const root = tempDir("theodolite-vcs-");
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    const a = put(join(root, "a.txt"), "aaa\n");
    const hook = put(join(root, ".git", "hooks", "pre-commit"), "#!/bin/sh\nfoo\n", 0o755);
    symlinkSync(".git/hooks", join(root, "hooks"));
    const plans = [
      plan(a, [edit(0, 0, 0, 1, "A")]),
      plan(join(root, "hooks", "pre-commit"), [edit(1, 0, 1, 3, "bar")]),
    ];
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("EditInvalid");
    expect(err.details).toEqual({
      file: ".git/hooks/pre-commit",
      index: null,
      reason: "inside .git",
    });
    expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\nfoo\n");
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(tempFiles(root)).toEqual([]);
  });

  for (const withoutExchange of [false, true]) {
    const how = withoutExchange ? "a hard link and a rename" : "an exchange";
    describe(`swapped in by ${how}`, () => {
      test("another writer's rename over a target meanwhile → WorkspaceDrift: its file kept, earlier files restored byte for byte", async () => {
        const root = tempDir("theodolite-midway-");
        mkdirSync(join(root, "sub"));
        const firstBytes = "first\r\nline two\n\ufeff😀\n";
        const a = put(join(root, "a.txt"), firstBytes, 0o640);
        const b = put(join(root, "sub", "b.txt"), "second\n", 0o644);
        const c = put(join(root, "c.txt"), "third\n", 0o644);
        const plans = [
          plan(a, [edit(0, 0, 0, 5, "FIRST")]),
          plan(b, [edit(0, 0, 0, 6, "SECOND")]),
          plan(c, [edit(0, 0, 0, 5, "THIRD")]),
        ];
        const seen: string[] = [];
        const err = await rejected(
          apply(root, plans, {
            withoutExchange,
            // after all checks, a.txt already replaced: an editor saves b.txt the atomic way
            beforeReplace: (abs) => {
              seen.push(abs);
              if (abs !== b) return;
              expect(readFileSync(a, "utf8")).toStartWith("FIRST");
              writeFileSync(join(root, "sub", "editor.tmp"), "the editor's text\n");
              renameSync(join(root, "sub", "editor.tmp"), b);
            },
          }),
        );
        expect(seen).toEqual([a, b]);
        expect(err.code).toBe("WorkspaceDrift");
        expect(err.details).toEqual({ files: ["sub/b.txt"] });
        expect(readFileSync(b, "utf8")).toBe("the editor's text\n");
        expect(readFileSync(a).equals(Buffer.from(firstBytes, "utf8"))).toBe(true);
        expect(mode(a)).toBe(0o640);
        expect(readFileSync(c, "utf8")).toBe("third\n");
        expect(tempFiles(root)).toEqual([]);
      });

      test("another writer's write into a target meanwhile (same file) → WorkspaceDrift, its edit kept", async () => {
        const { root, a, b, plans } = workspace("theodolite-inplace-");
        const inode = statSync(b).ino;
        const err = await rejected(
          apply(root, plans, {
            withoutExchange,
            beforeReplace: (abs) => {
              if (abs === b) writeFileSync(b, "bbb and the other writer's line\n");
            },
          }),
        );
        expect(err.code).toBe("WorkspaceDrift");
        expect(readFileSync(b, "utf8")).toBe("bbb and the other writer's line\n");
        expect(statSync(b).ino).toBe(inode);
        expect(readFileSync(a, "utf8")).toBe("aaa\n");
        expect(tempFiles(root)).toEqual([]);
      });

      test("a write failing midway (the file system refuses) → ApplyFailed; earlier files restored", async () => {
        const root = tempDir("theodolite-refused-");
        const a = put(join(root, "a.txt"), "aaa\n", 0o600);
        const b = put(join(root, "b.txt"), "bbb\n");
        const plans = [a, b].map((f) => plan(f, [edit(0, 0, 0, 1, "X")]));
        try {
          const err = await rejected(
            apply(root, plans, {
              withoutExchange,
              // after every check: b.txt made immutable, so its replacement fails for root too
              beforeReplace: (abs) => {
                if (abs === b) chattr(b, FLAG_IMMUTABLE, true);
              },
            }),
          );
          expect(err.code).toBe("ApplyFailed");
          expect(err.details).toMatchObject({ failed: "b.txt", restored: ["a.txt"], written: [] });
          expect(String((err.details as { error: string }).error)).toContain("EPERM");
        } finally {
          chattr(b, FLAG_IMMUTABLE, false);
        }
        expect(readFileSync(a, "utf8")).toBe("aaa\n");
        expect(mode(a)).toBe(0o600);
        expect(readFileSync(b, "utf8")).toBe("bbb\n");
        expect(tempFiles(root)).toEqual([]);
      });
    });
  }

  test("a write through a descriptor opened before the apply, once its file was swapped: WorkspaceDrift, the write kept", async () => {
    const { root, a, b, plans } = workspace("theodolite-fd-before-");
    const held = openSync(a, "a");
    try {
      const err = await rejected(
        apply(root, plans, {
          // a.txt is swapped in and checked; the writer's descriptor still names the old file
          afterSwap: (abs) => {
            if (abs === b) writeSync(held, "the writer's line\n");
          },
        }),
      );
      expect(err.code).toBe("WorkspaceDrift");
      expect(err.details).toEqual({ files: ["a.txt"] });
    } finally {
      closeSync(held);
    }
    expect(readFileSync(a, "utf8")).toBe("aaa\nthe writer's line\n");
    expect(readFileSync(b, "utf8")).toBe("bbb\n");
    expect(tempFiles(root)).toEqual([]);
  });

  test("a set-group-ID directory does not give the new file its group", async () => {
    const root = tempDir("theodolite-setgid-");
    mkdirSync(join(root, "shared"));
    chownSync(join(root, "shared"), 0, 65534);
    chmodSync(join(root, "shared"), 0o2775);
    const a = put(join(root, "shared", "a.txt"), "aaa\n", 0o644);
    chownSync(a, 0, 0);
    await apply(root, [plan(a, [edit(0, 0, 0, 1, "A")])]);
    expect(readFileSync(a, "utf8")).toBe("Aaa\n");
    expect([statSync(a).uid, statSync(a).gid, mode(a)]).toEqual([0, 0, 0o644]);
  });

  test("the record of an apply is gone once it is done, written or refused", async () => {
    const root = tempDir("theodolite-record-");
    const state = tempDir("theodolite-record-state-");
    const journal = new ApplyJournal([state]);
    const a = put(join(root, "a.txt"), "aaa\n");
    await applyPlannedWrites(workspaceRoot(root), [plan(a, [edit(0, 0, 0, 1, "A")])], MAX, journal);
    expect(readdirSync(join(state, "applies"))).toEqual([]);
    expect(statSync(join(state, "applies")).mode & 0o777).toBe(0o700);
    const p = plan(a, [edit(0, 0, 0, 1, "B")]);
    writeFileSync(a, "changed\n");
    await rejected(applyPlannedWrites(workspaceRoot(root), [p], MAX, journal));
    expect(readdirSync(join(state, "applies"))).toEqual([]);
  });

  test("a record directory others may enter → ApplyFailed, nothing written", async () => {
    const root = tempDir("theodolite-open-state-");
    const state = tempDir("theodolite-open-state-dir-");
    mkdirSync(join(state, "applies"), { mode: 0o755 });
    chmodSync(join(state, "applies"), 0o755);
    const a = put(join(root, "a.txt"), "aaa\n");
    const p = plan(a, [edit(0, 0, 0, 1, "A")]);
    const err = await rejected(
      applyPlannedWrites(workspaceRoot(root), [p], MAX, new ApplyJournal([state])),
    );
    expect(err.code).toBe("ApplyFailed");
    expect(err.message).toContain("others may enter it");
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(tempFiles(root)).toEqual([]);
  });

  test("a hard-linked target is refused: replacing one name would split it", async () => {
    const { root, a, b, plans } = workspace("theodolite-hardlink-");
    linkSync(b, join(root, "b-other-name.txt"));
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("ApplyFailed");
    expect(err.details).toMatchObject({ failed: "b.txt", restored: [], written: [] });
    expect(String((err.details as { error: string }).error)).toContain("2 hard links");
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(statSync(b).nlink).toBe(2);
    expect(tempFiles(root)).toEqual([]);
  });

  test("an immutable file and an append-only directory are refused before anything is written", async () => {
    const files = { "a.txt": "aaa\n", "logs/b.txt": "bbb\n", "c.txt": "ccc\n" };
    const { root, a, paths, plans } = workspace("theodolite-chattr-", files);
    const c = paths[2];
    chattr(join(root, "logs"), FLAG_APPEND, true);
    chattr(c, FLAG_IMMUTABLE, true);
    try {
      const err = await rejected(apply(root, plans));
      expect(err.code).toBe("ApplyFailed");
      const refused = (err.details as { refused: { file: string; reason: string }[] }).refused;
      expect(refused.map((x) => x.file)).toEqual(["logs/b.txt", "c.txt"]);
      expect(refused[0]?.reason).toContain("append-only");
      expect(refused[1]?.reason).toContain("immutable");
      expect(readdirSync(join(root, "logs"))).toEqual(["b.txt"]);
    } finally {
      chattr(join(root, "logs"), FLAG_APPEND, false);
      chattr(c, FLAG_IMMUTABLE, false);
    }
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(tempFiles(root)).toEqual([]);
  });

  test("extended attributes and inode flags are carried over to the new file", async () => {
    const root = tempDir("theodolite-attrs-");
    const a = put(join(root, "a.txt"), "aaa\n", 0o640);
    const fd = openSync(a, "r");
    try {
      writeXattr(fd, "user.theodolite.test", Buffer.from("kept"));
    } finally {
      closeSync(fd);
    }
    chattr(a, FLAG_NODUMP, true);
    await apply(root, [plan(a, [edit(0, 0, 0, 1, "A")])]);
    expect(readFileSync(a, "utf8")).toBe("Aaa\n");
    const after = openSync(a, "r");
    try {
      expect(Buffer.from(readXattrs(after).get("user.theodolite.test") ?? []).toString()).toBe(
        "kept",
      );
      expect(getFlags(after) & FLAG_NODUMP).toBe(FLAG_NODUMP);
    } finally {
      closeSync(after);
    }
    expect(mode(a)).toBe(0o640);
  });

  test("a read-only target (mode 0444) → ApplyFailed, nothing written, no temp files", async () => {
    const root = tempDir("theodolite-readonly-");
    const a = put(join(root, "a.txt"), "aaa\n");
    const locked = put(join(root, "locked.txt"), "lll\n", 0o444);
    const plans = [a, locked].map((f) => plan(f, [edit(0, 0, 0, 1, "X")]));
    const err = await rejected(apply(root, plans));
    expect(err.code).toBe("ApplyFailed");
    expect(err.details).toMatchObject({ failed: "locked.txt", restored: [], written: [] });
    expect(String((err.details as { error: string }).error)).toContain("0444");
    expect(readFileSync(a, "utf8")).toBe("aaa\n");
    expect(readFileSync(locked, "utf8")).toBe("lll\n");
    expect(mode(locked)).toBe(0o444);
    expect(tempFiles(root)).toEqual([]);
  });

  test("a directory swapped for a link to outside after the checks: writes stay in the verified directory", async () => {
    const root = tempDir("theodolite-dirswap-");
    const outside = tempDir("theodolite-dirswap-out-");
    mkdirSync(join(root, "sub"));
    const a = put(join(root, "sub", "a.txt"), "aaa\n");
    const b = put(join(root, "sub", "b.txt"), "bbb\n");
    const decoyA = put(join(outside, "a.txt"), "outside a\n");
    const decoyB = put(join(outside, "b.txt"), "outside b\n");
    const plans = [a, b].map((f) => plan(f, [edit(0, 0, 0, 3, "NEW")]));
    await apply(root, plans, {
      beforeReplace: (_abs, index) => {
        if (index !== 0) return;
        // between the checks and the first rename: sub becomes a link to the outside dir
        renameSync(join(root, "sub"), join(root, "moved"));
        symlinkSync(outside, join(root, "sub"));
      },
    });
    expect(readFileSync(decoyA, "utf8")).toBe("outside a\n");
    expect(readFileSync(decoyB, "utf8")).toBe("outside b\n");
    expect(readFileSync(join(root, "moved", "a.txt"), "utf8")).toBe("NEW\n");
    expect(readFileSync(join(root, "moved", "b.txt"), "utf8")).toBe("NEW\n");
    expect(tempFiles(root)).toEqual([]);
    expect(tempFiles(outside)).toEqual([]);
  });
});
