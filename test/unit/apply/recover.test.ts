/**
 * All files or none across a kill (SPEC §7.4): a process applying an edit to twelve files is
 * SIGKILLed at each kind of point (test/support/apply-kill-child.ts); the next recovery on the workspace leaves
 * every file old (killed before the commit mark) or every file new (after it), removes every
 * temp file and the record, and says what it did. A record locked by a live apply is left
 * alone.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApplyJournal, type RecoveryReport } from "../../../src/apply/journal.ts";
import { recoverApplies } from "../../../src/apply/recover.ts";
import { tryLockExclusive } from "../../../src/ffi/syscalls.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterEach(removeTempDirs);

const FILES = 12;
const MAX = 1 << 20;
const CHILD = join(import.meta.dir, "..", "..", "support", "apply-kill-child.ts");

function workspace(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`f${i}.txt`] = `old file ${i}\n`;
  return tempDir("theodolite-recover-", files);
}

const texts = (root: string) =>
  Array.from({ length: FILES }, (_, i) => readFileSync(join(root, `f${i}.txt`), "utf8"));
const temps = (root: string) => readdirSync(root).filter((n) => n.includes(".theodolite-"));
const allOld = Array.from({ length: FILES }, (_, i) => `old file ${i}\n`);
const allNew = Array.from({ length: FILES }, (_, i) => `new file ${i}\n`);

async function killedAt(root: string, state: string, point: string): Promise<void> {
  const child = Bun.spawn([process.execPath, CHILD, root, state, String(FILES), point], {
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    await child.exited;
    expect(child.signalCode).toBe("SIGKILL");
  } finally {
    child.kill("SIGKILL");
  }
}

describe("recoverApplies (SPEC §7.4)", () => {
  const cases: [string, string[], (root: string) => number][] = [
    ["before:0", allOld, () => 0],
    ["after:0", allOld, () => 1],
    ["before:7", allOld, () => 7],
    ["after:7", allOld, () => 8],
    [`after:${FILES - 1}`, allOld, () => FILES],
    ["commit", allNew, () => 0],
  ];
  for (const [point, expected, restored] of cases) {
    test(`killed at ${point}: the next start leaves every file ${expected === allNew ? "new" : "old"}, no temp file, no record`, async () => {
      const root = workspace();
      const state = tempDir("theodolite-recover-state-", {});
      await killedAt(root, state, point);
      expect(temps(root).length).toBeGreaterThan(0);
      const journal = new ApplyJournal([state]);
      const [report, ...more] = recoverApplies(journal, root, MAX);
      expect(more).toEqual([]);
      expect(texts(root)).toEqual(expected);
      expect(temps(root)).toEqual([]);
      expect(readdirSync(join(state, "applies"))).toEqual([]);
      expect(report).toMatchObject({
        action: expected === allNew ? "finished" : "undone",
        files: FILES,
        left: [],
      });
      expect(report?.restored.length).toBe(restored(root));
      expect(journal.recovered).toEqual([report as RecoveryReport]);
      // a second start finds nothing left to do
      expect(recoverApplies(journal, root, MAX)).toEqual([]);
    });
  }

  test("a file changed after the kill is left as found and named; the others are undone", async () => {
    const root = workspace();
    const state = tempDir("theodolite-recover-state-", {});
    await killedAt(root, state, "after:5");
    writeFileSync(join(root, "f2.txt"), "the user's edit after the crash\n");
    const [report] = recoverApplies(new ApplyJournal([state]), root, MAX);
    expect(report?.left).toEqual([
      { file: "f2.txt", reason: "it changed since (neither the old nor the new text)" },
    ]);
    const now = texts(root);
    expect(now[2]).toBe("the user's edit after the crash\n");
    expect(now.filter((_, i) => i !== 2)).toEqual(allOld.filter((_, i) => i !== 2));
    expect(temps(root)).toEqual([]);
  });

  test("another root's records and a record still locked by a live apply are left alone", async () => {
    const root = workspace();
    const other = workspace();
    const state = tempDir("theodolite-recover-state-", {});
    await killedAt(root, state, "after:3");
    const records = readdirSync(join(state, "applies"));
    expect(records.length).toBe(1);
    expect(recoverApplies(new ApplyJournal([state]), other, MAX)).toEqual([]);
    const held = openSync(join(state, "applies", records[0] as string), "r");
    try {
      expect(tryLockExclusive(held)).toBe(true);
      // a separate open file description: as another bridge would see it
      expect(recoverApplies(new ApplyJournal([state]), root, MAX)).toEqual([]);
    } finally {
      closeSync(held);
    }
    expect(recoverApplies(new ApplyJournal([state]), root, MAX)[0]?.action).toBe("undone");
    expect(texts(root)).toEqual(allOld);
  });

  test("no record directory: nothing to do, nothing created", () => {
    const root = workspace();
    const state = tempDir("theodolite-recover-state-", {});
    mkdirSync(join(state, "elsewhere"));
    expect(recoverApplies(new ApplyJournal([state]), root, MAX)).toEqual([]);
    expect(readdirSync(state)).toEqual(["elsewhere"]);
  });
});
