/**
 * Check what will be used, then use what was checked (SPEC §7.4): every property phase 1
 * checks of a target and the replacement relies on is checked again on the inode actually
 * replaced. Each change is made by a hook at the exact moment — between the checks and the
 * swap, or after the swap and before the commit — instead of racing another process.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, linkSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApplyJournal } from "../../../src/apply/journal.ts";
import { ApplyLane } from "../../../src/apply/lane.ts";
import { type PlannedWrite, planWrites } from "../../../src/apply/validate.ts";
import { type ApplyHooks, applyPlannedWrites } from "../../../src/apply/write.ts";
import { log } from "../../../src/log.ts";
import { readWorkspaceText } from "../../../src/workspace/confined.ts";
import { workspaceRoot } from "../../../src/workspace/files.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { rejected } from "../../support/thrown.ts";

const MAX = 1 << 20;
afterEach(removeTempDirs);

/** Three files, each planned to have its first letter replaced by X. */
function threeFiles(): { root: string; files: string[]; plans: PlannedWrite[] } {
  const root = tempDir("theodolite-swapcheck-", {});
  const files = ["a.txt", "b.txt", "c.txt"].map((name) => {
    const abs = join(root, name);
    writeFileSync(abs, `${name} old\n`);
    chmodSync(abs, 0o644);
    return abs;
  });
  const plans = files.map((abs) => {
    const { text, sha256 } = readWorkspaceText("/", abs, MAX);
    const edits = [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, newText: "X" },
    ];
    return planWrites([{ snapshot: { abs, text, sha256 }, edits }], "utf-16")[0] as PlannedWrite;
  });
  return { root, files, plans };
}

function apply(root: string, plans: PlannedWrite[], hooks: ApplyHooks, lane?: ApplyLane) {
  const journal = new ApplyJournal([tempDir("theodolite-swapcheck-state-", {})]);
  return applyPlannedWrites(workspaceRoot(root), plans, MAX, journal, hooks, lane);
}

/** Every file holds its old text, and no name of the apply is left. */
function unchanged(root: string, files: string[]): void {
  for (const abs of files) expect(readFileSync(abs, "utf8")).toEndWith(" old\n");
  expect(readdirSync(root).filter((n) => n.includes(".theodolite-"))).toEqual([]);
}

/** The name the replaced `name` has beside it once swapped (the apply's side name). */
function replacedName(root: string, name: string): string {
  const side = readdirSync(root).filter(
    (n) =>
      n.startsWith(`.${name}.theodolite-`) &&
      readFileSync(join(root, n), "utf8").endsWith(" old\n"),
  );
  expect(side.length).toBe(1);
  return join(root, side[0] as string);
}

interface PutBack {
  failed: string;
  error: string;
  restored: string[];
  written: string[];
}

/** threeFiles() applied with `hooks`: ApplyFailed, every file old again; its details. */
async function putBack(
  hooks: (root: string, files: string[]) => ApplyHooks,
): Promise<{ root: string; files: string[]; details: PutBack }> {
  const { root, files, plans } = threeFiles();
  const err = await rejected(apply(root, plans, hooks(root, files)));
  expect(err.code).toBe("ApplyFailed");
  unchanged(root, files);
  const details = err.details as unknown as PutBack;
  expect(details.written).toEqual([]);
  return { root, files, details };
}

for (const withoutExchange of [false, true]) {
  describe(`swapped in by ${withoutExchange ? "a hard link and a rename" : "an exchange"}`, () => {
    test("a hard link made to a target between its checks and its swap → ApplyFailed, every file put back, no name split", async () => {
      let other = "";
      const { files, details } = await putBack((root, files) => ({
        withoutExchange,
        beforeReplace: (abs) => {
          other = join(root, "b-other-name.txt");
          if (abs === files[1]) linkSync(abs, other);
        },
      }));
      expect(details).toMatchObject({ failed: "b.txt", restored: ["a.txt", "b.txt"] });
      expect(details.error).toContain("2 hard links");
      // both names of b.txt are the one file, with the old text
      expect(statSync(other).ino).toBe(statSync(files[1] as string).ino);
      expect(readFileSync(other, "utf8")).toBe("b.txt old\n");
    });

    test("a link to a replaced file made after its own swap (a link call already under way) → caught before the commit", async () => {
      let other = "";
      const { files, details } = await putBack((root, files) => ({
        withoutExchange,
        // a.txt was swapped and checked; its replaced inode gains a name while c.txt swaps
        afterSwap: (abs) => {
          other = join(root, "a-other-name.txt");
          if (abs === files[2]) linkSync(replacedName(root, "a.txt"), other);
        },
      }));
      expect(details.failed).toBe("a.txt");
      expect(details.error).toContain("2 hard links");
      expect([...details.restored].sort()).toEqual(["a.txt", "b.txt", "c.txt"]);
      expect(statSync(other).ino).toBe(statSync(files[0] as string).ino);
    });

    test("a target's mode changed between its checks and its swap → ApplyFailed, the new mode kept", async () => {
      const { files, details } = await putBack((_, files) => ({
        withoutExchange,
        beforeReplace: (abs) => {
          if (abs === files[2]) chmodSync(abs, 0o600);
        },
      }));
      expect(details.failed).toBe("c.txt");
      expect(details.error).toContain("owner or mode");
      expect(statSync(files[2] as string).mode & 0o777).toBe(0o600);
    });
  });
}

describe("the window left (SPEC §7.4)", () => {
  test("a link to a replaced file made after the last check is not undone, but logged", async () => {
    const { root, files, plans } = threeFiles();
    const lines: string[] = [];
    log.addSink({ write: (line) => lines.push(line) });
    const other = join(root, "a-other-name.txt");
    const { written } = await apply(root, plans, {
      // the commit mark is written: a link() under way since before the swap lands now
      afterCommit: () => linkSync(replacedName(root, "a.txt"), other),
    });
    expect(written).toEqual(files);
    expect(readFileSync(files[0] as string, "utf8")).toBe("X.txt old\n");
    expect(readFileSync(other, "utf8")).toBe("a.txt old\n");
    expect(lines.join("")).toContain("a.txt gained a hard link while it was replaced");
  });
});

describe("between the files of an apply", () => {
  test("a target changed between its check and its preparation → WorkspaceDrift, nothing written", async () => {
    const { root, files, plans } = threeFiles();
    let turns = 0;
    // the lane's turn after phase 1's last file: another writer edits a.txt then
    const lane = new ApplyLane(
      () => {},
      () => {
        turns += 1;
        if (turns === 3) writeFileSync(files[0] as string, "a.txt changed old\n");
      },
    );
    const err = await rejected(apply(root, plans, {}, lane));
    expect(err.code).toBe("WorkspaceDrift");
    expect(err.details).toEqual({ files: ["a.txt"] });
    expect(readFileSync(files[0] as string, "utf8")).toBe("a.txt changed old\n");
    unchanged(root, files);
  });

  test("the bridge shutting down while files are prepared → Cancelled, nothing written, no record", async () => {
    const { root, files, plans } = threeFiles();
    const state = tempDir("theodolite-swapcheck-state-", {});
    let turns = 0;
    let closed: Promise<void> | undefined;
    const lane = new ApplyLane(
      () => {},
      () => {
        turns += 1;
        if (turns === 4) closed = lane.close(Date.now() + 1000);
      },
    );
    const journal = new ApplyJournal([state]);
    const applying = lane.run(() =>
      applyPlannedWrites(workspaceRoot(root), plans, MAX, journal, {}, lane),
    );
    const err = await rejected(applying);
    expect(err.code).toBe("Cancelled");
    await closed;
    unchanged(root, files);
    expect(readdirSync(join(state, "applies"))).toEqual([]);
  });
});
