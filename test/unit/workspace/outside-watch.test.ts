import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FileChange } from "../../../src/workspace/file-events.ts";
import { OutsideWatch } from "../../../src/workspace/outside-watch.ts";
import { InotifyHub } from "../../../src/workspace/watch-hub.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { waitForValue } from "../../support/wait.ts";

afterAll(removeTempDirs);

/**
 * An outside watch of `root` (reading workspace files with `read`, source files by `exts`)
 * with one subscriber: what it is told, and a wait for a change.
 */
function watching(
  root: string,
  exts: string[] = [],
  read = (_rel: string): string | undefined => undefined,
) {
  const watch = new OutsideWatch(new InotifyHub(), root, read, () => [], new Set(exts));
  const got: FileChange[] = [];
  const s = watch.subscribe((c) => got.push(...c));
  const told = (what: string, seen: (c: FileChange) => boolean) =>
    waitForValue(
      () => {
        watch.poll();
        return got.some(seen) ? true : undefined;
      },
      5000,
      { what },
    );
  return { watch, got, s, told };
}

describe("OutsideWatch", () => {
  test("a dependency no longer named is no longer watched: its changes stop", async () => {
    const base = tempDir(undefined, { "proj/a.c": "int a;\n", "busy/x.h": "#define X 1\n" });
    const root = join(base, "proj");
    const { watch, got, told } = watching(root, ["c", "h"], (rel) => {
      try {
        return readFileSync(join(root, rel), "utf8");
      } catch {
        return undefined;
      }
    });
    try {
      symlinkSync(join(base, "busy"), join(root, "link"));
      watch.noteChanges([{ abs: join(root, "link"), kind: "created" }]);
      const busy = join(base, "busy");
      expect(watch.status().map((s) => s.path)).toContain(busy);
      writeFileSync(join(busy, "x.h"), "#define X 2\n");
      await told("the change in the linked directory", (c) => c.abs === join(busy, "x.h"));
      // the link is gone: nothing names the directory, its changes are no one's
      rmSync(join(root, "link"));
      watch.noteChanges([{ abs: join(root, "link"), kind: "deleted" }]);
      expect(watch.status().map((s) => s.path)).not.toContain(busy);
      got.length = 0;
      writeFileSync(join(busy, "x.h"), "#define X 3\n");
      writeFileSync(join(busy, "y.h"), "#define Y 1\n");
      watch.poll();
      expect(got).toEqual([]);
    } finally {
      watch.close();
    }
  });
});

describe("OutsideWatch: what one server alone reads", () => {
  test("is that subscriber's: its changes and what cannot be watched are told to it alone", async () => {
    const base = tempDir(undefined, { "proj/a.c": "int a;\n", "lib/m.py": "x = 1\n" });
    const { watch, s: a, told } = watching(join(base, "proj"), ["c"]);
    try {
      const theirs: FileChange[] = [];
      const b = watch.subscribe((c) => theirs.push(...c));
      const lib = join(base, "lib");
      // a holds the root: it cannot be watched whole, and is named
      const holder = {
        path: base,
        kind: "tree" as const,
        source: "a watcher",
        ownRead: true as const,
      };
      a.depend([{ path: lib, kind: "tree", source: "a watcher", ownRead: true }, holder]);
      expect(watch.status().map((s) => s.path)).toContain(lib);
      expect(a.unwatched()).toEqual([base]);
      expect(b.unwatched()).toEqual([]);
      writeFileSync(join(lib, "m.py"), "x = 2\n");
      await told("the change told to the server that reads it", () => true);
      expect(theirs).toEqual([]);
      b.close();
      a.close();
    } finally {
      watch.close();
    }
  });
});

describe("OutsideWatch: a path to nothing yet", () => {
  test("a directory made on its way is no change; the path itself appearing is one", async () => {
    const base = tempDir(undefined, { "proj/a.c": "int a;\n", "home/.profile": "\n" });
    const { watch, got, s, told } = watching(join(base, "proj"), ["c"]);
    try {
      const wanted = join(base, "home/.config/tool/config.toml");
      s.depend([{ path: wanted, kind: "file", source: "the tool's user configuration" }]);
      // another program's configuration makes ~/.config: watched deeper, nothing told
      mkdirSync(join(base, "home/.config/git"), { recursive: true });
      writeFileSync(join(base, "home/.config/git/config"), "[user]\n");
      await waitForValue(
        () => {
          watch.poll();
          return watch.status().some((w) => w.path === join(base, "home/.config"))
            ? true
            : undefined;
        },
        5000,
        { what: "the watch moved to ~/.config" },
      );
      expect(got).toEqual([]);
      mkdirSync(join(base, "home/.config/tool"));
      writeFileSync(wanted, "x = 1\n");
      await told("the configuration's appearance, told", () => true);
      s.close();
    } finally {
      watch.close();
    }
  });
});

describe("OutsideWatch: a watched directory moved away", () => {
  test("is awaited where it was: its return and later edits are told", async () => {
    const base = tempDir(undefined, {
      "proj/a.ts": "\n",
      "shared/util.ts": "export const a = 1;\n",
    });
    const shared = join(base, "shared");
    const { watch, got, s, told } = watching(join(base, "proj"));
    try {
      s.depend([{ path: shared, kind: "tree", source: "tsconfig paths" }]);
      renameSync(shared, join(base, "shared.gone"));
      await told("the move away", (c) => c.kind === "deleted");
      got.length = 0;
      renameSync(join(base, "shared.gone"), shared);
      await told("the return", (c) => c.abs === shared || c.abs.startsWith(`${shared}/`));
      got.length = 0;
      writeFileSync(join(shared, "util.ts"), "export const a = 2;\n");
      await told("an edit after the return", (c) => c.abs === join(shared, "util.ts"));
      // the directory it was moved to is not watched under the dependency's name
      got.length = 0;
      renameSync(shared, join(base, "shared.gone"));
      await told("the second move away", (c) => c.kind === "deleted");
      got.length = 0;
      writeFileSync(join(base, "shared.gone/util.ts"), "export const a = 3;\n");
      watch.poll();
      expect(got).toEqual([]);
      s.close();
    } finally {
      watch.close();
    }
  });
});

describe("OutsideWatch: a path that comes to lead elsewhere", () => {
  test("a link on the way pointed elsewhere: told as the files it leads to now", async () => {
    const base = tempDir(undefined, {
      "proj/main.py": "\n",
      "lib-a/util.py": "def g() -> int: ...\n",
      "lib-a/old.py": "\n",
      "lib-b/util.py": "def g() -> str: ...\n",
    });
    symlinkSync("lib-a", join(base, "lib"));
    const { watch, got, s, told } = watching(join(base, "proj"));
    try {
      s.depend([{ path: join(base, "lib"), kind: "tree", source: "extraPaths" }]);
      // what `ln -sfn lib-b lib` does: a new link renamed over the old
      symlinkSync("lib-b", join(base, "lib.new"));
      renameSync(join(base, "lib.new"), join(base, "lib"));
      // both places, by their real paths: what it led to, and what it leads to now
      await told("the link pointed elsewhere", (c) => c.abs === join(base, "lib-b/util.py"));
      expect(got).toContainEqual({ abs: join(base, "lib-b/util.py"), kind: "created" });
      expect(got).toContainEqual({ abs: join(base, "lib-a/old.py"), kind: "changed" });
      got.length = 0;
      writeFileSync(join(base, "lib-b/util.py"), "def g() -> bytes: ...\n");
      await told("an edit where it leads now", (c) => c.abs.endsWith("/util.py"));
      got.length = 0;
      writeFileSync(join(base, "lib-a/util.py"), "def g() -> float: ...\n");
      watch.poll();
      expect(got).toEqual([]);
    } finally {
      watch.close();
    }
  });

  test("a link inside the root to a link outside it, that one pointed elsewhere", async () => {
    const base = tempDir(undefined, {
      "proj/main.py": "\n",
      "lib-a/util.py": "def g() -> int: ...\n",
      "lib-b/util.py": "def g() -> str: ...\n",
    });
    symlinkSync("lib-a", join(base, "lib"));
    const root = join(base, "proj");
    symlinkSync("../lib", join(root, "libs"));
    const { watch, got, told } = watching(root);
    try {
      watch.noteChanges([{ abs: join(root, "libs"), kind: "created" }]);
      expect(watch.status().map((s) => s.path)).toContain(join(base, "lib-a"));
      symlinkSync("lib-b", join(base, "lib.new"));
      renameSync(join(base, "lib.new"), join(base, "lib"));
      await told(
        "the outside link pointed elsewhere",
        (c) => c.abs === join(base, "lib-b/util.py"),
      );
      got.length = 0;
      writeFileSync(join(base, "lib-b/util.py"), "def g() -> bytes: ...\n");
      await told("an edit where it leads now", (c) => c.abs === join(base, "lib-b/util.py"));
    } finally {
      watch.close();
    }
  });

  test("a directory on the way renamed and made again: told, the old one no more", async () => {
    const base = tempDir(undefined, {
      "proj/main.ts": "\n",
      "vendor/shared/util.ts": "export const a = 1;\n",
    });
    const { watch, got, s, told } = watching(join(base, "proj"));
    try {
      s.depend([{ path: join(base, "vendor/shared"), kind: "tree", source: "tsconfig paths" }]);
      // a re-vendoring: the old tree moved aside, a new one made where it was
      renameSync(join(base, "vendor"), join(base, "vendor.old"));
      mkdirSync(join(base, "vendor/shared"), { recursive: true });
      writeFileSync(join(base, "vendor/shared/util.ts"), "export const a = 'x';\n");
      await told("the path leading to a new directory", (c) =>
        c.abs.startsWith(join(base, "vendor/shared")),
      );
      got.length = 0;
      writeFileSync(join(base, "vendor.old/shared/util.ts"), "export const a = 3;\n");
      watch.poll();
      expect(got.filter((c) => c.abs.includes("vendor.old"))).toEqual([]);
      writeFileSync(join(base, "vendor/shared/util.ts"), "export const a = 4;\n");
      await told(
        "an edit in the new directory",
        (c) => c.abs === join(base, "vendor/shared/util.ts"),
      );
    } finally {
      watch.close();
    }
  });
});
