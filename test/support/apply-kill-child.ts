/**
 * A process that applies an edit to every `f<i>.txt` of a workspace and SIGKILLs itself at
 * a chosen point of the apply (test/unit/apply/recover.test.ts): `before:K` right before file K is swapped
 * in, `after:K` right after, `commit` once the commit mark is written.
 * argv: ROOT STATE_DIR FILES POINT
 */
import { join } from "node:path";
import { ApplyJournal } from "../../src/apply/journal.ts";
import { planWrites } from "../../src/apply/validate.ts";
import { type ApplyHooks, applyPlannedWrites } from "../../src/apply/write.ts";
import { readWorkspaceText } from "../../src/workspace/confined.ts";
import { workspaceRoot } from "../../src/workspace/files.ts";

const [root, state, count, point] = process.argv.slice(2) as [string, string, string, string];
const MAX = 1 << 20;
const die = () => process.kill(process.pid, "SIGKILL");

const plans = planWrites(
  Array.from({ length: Number(count) }, (_, i) => {
    const { abs, text, sha256 } = readWorkspaceText(root, join(root, `f${i}.txt`), MAX);
    const edits = [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
        newText: "new",
      },
    ];
    return { snapshot: { abs, text, sha256 }, edits };
  }),
  "utf-16",
);
const [when, at] = point.split(":");
const hooks: ApplyHooks = {
  beforeReplace: (_abs, i) => (when === "before" && i === Number(at) ? die() : undefined),
  afterSwap: (_abs, i) => (when === "after" && i === Number(at) ? die() : undefined),
  afterCommit: () => (when === "commit" ? die() : undefined),
};
await applyPlannedWrites(workspaceRoot(root), plans, MAX, new ApplyJournal([state]), hooks);
