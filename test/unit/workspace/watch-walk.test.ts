/**
 * Counting what the watcher leaves unwatched (SPEC §5.2), at any depth: a tree nested
 * thousands deep, past PATH_MAX, counted exactly whatever the bound.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { closeWatchers, watch } from "../../support/watching.ts";

afterAll(removeTempDirs);
afterEach(closeWatchers);

const DEPTH = 2500;

/** `root` with DEPTH directories nested below it, made in chunks a system call accepts. */
function nest(root: string): void {
  const made = Bun.spawnSync([
    "bash",
    "-c",
    'cd "$1" && chunk=$(printf "d/%.0s" $(seq 500)) && for i in $(seq "$2"); do mkdir -p "$chunk" && cd "$chunk" || exit 1; done 2>/dev/null',
    "nest",
    root,
    String(DEPTH / 500),
  ]);
  if (made.exitCode !== 0) throw new Error(`nesting failed: ${made.stderr.toString()}`);
}

describe("nesting thousands deep", () => {
  test("every directory is counted, watched or not, beyond PATH_MAX too", () => {
    const root = tempDir("theodolite-tree-", { "top.py": "t" });
    try {
      nest(root);
      counted(root);
    } finally {
      // GNU rm walks any depth by handle
      Bun.spawnSync(["rm", "-rf", root]);
    }
  }, 120_000);
});

function counted(root: string): void {
  // the kernel takes no path this long: whatever the bound, the deepest are unwatched
  const all = watch(root, 8192).watcher.status();
  expect(all.watched_directories + all.unwatched_directories).toBe(DEPTH + 1);
  expect(all.watched_directories).toBeLessThan(DEPTH);
  expect(all.unwatched_exact).toBe(true);
  expect(all.reason).toBe("paths longer than the kernel accepts (PATH_MAX)");
  closeWatchers();
  const few = watch(root, 100).watcher.status();
  expect(few).toMatchObject({
    watched_directories: 100,
    unwatched_directories: DEPTH + 1 - 100,
    unwatched_exact: true,
  });
  // the one unwatched subtree starts at depth 100 (its path shortened in the sample)
  expect(few.unwatched_sample).toEqual([expect.stringMatching(/^(d\/){39}d…(d\/){39}d$/)]);
  expect(few.reason).toContain("more than bridge.max_watches (100) directories");
}
