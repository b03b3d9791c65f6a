/**
 * "What did this change break?" on real servers (SPEC §6.1): diagnostics for a change set
 * of files, then `since` that snapshot after inserting a line above an existing error and
 * adding one new error — exactly 1 added, 0 removed, the moved errors unchanged.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeAllBridges } from "../support/bridge.ts";
import {
  ok,
  range,
  realSuite,
  requiredUnderCI,
  SNAPSHOT,
  startRealBridge,
} from "../support/real-bridge.ts";
import { findClangd, findPyright, materializeCFixture } from "../support/real-servers.ts";

/** Insert `line` before 1-based line `before` and append `tail` to a file. */
function edit(path: string, before: number, line: string, tail: string): void {
  const lines = readFileSync(path, "utf8").split("\n");
  lines.splice(before - 1, 0, line);
  writeFileSync(path, `${lines.join("\n")}${tail}`);
}

afterAll(closeAllBridges);

const pyright = await findPyright();
requiredUnderCI("pyright", pyright);
describe.skipIf(!pyright)("pyright", () => {
  const suite = realSuite("pyright", pyright);

  test("a line above both errors and one new error: 1 added, 0 removed, 2 unchanged", async () => {
    const root = suite.fixture("python");
    const bridge = await startRealBridge(root, suite.config());
    const files = ["errors.py", "app.py"];
    const before = await ok(bridge, "diagnostics", { files });
    expect(before.total).toBe(2);
    expect(before.files).toEqual(["app.py", "errors.py"]);

    edit(join(root, "errors.py"), 1, "# a comment moves everything down", "label: str = 5\n");
    const diff = await ok(bridge, "diagnostics", { files, since: before.snapshot });
    expect(diff).toEqual({
      added: [
        {
          file: "errors.py",
          ...range(6, 14, 6, 15),
          severity: "error",
          code: "reportAssignmentType",
          source: "Pyright",
          message:
            'Type "Literal[5]" is not assignable to declared type "str"\n\u00a0\u00a0"Literal[5]" is not assignable to "str"',
          channels: ["pull"],
        },
      ],
      removed: [],
      unchanged: 2,
      files: ["app.py", "errors.py"],
      snapshot: SNAPSHOT,
    });
    // the full answer for the same state carries the same snapshot
    const now = await ok(bridge, "diagnostics", { files });
    expect(now.snapshot).toBe(diff.snapshot);
    expect(now.total).toBe(3);
    await bridge.close();
  });
});

const clangd = await findClangd();
requiredUnderCI("clangd", clangd);
describe.skipIf(!clangd)("clangd", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test("a line above every error (one with a note) and one new error: 1 added, 0 removed", async () => {
    const root = materializeCFixture(undefined, "c-errors");
    dirs.push(root);
    const suite = realSuite("clangd", clangd);
    const bridge = await startRealBridge(root, suite.config());
    const before = await ok(bridge, "diagnostics", { files: ["broken.c"] });
    expect(before.total).toBe(2);
    // above the typo error and its note (which names a line), and above missing_member
    edit(join(root, "broken.c"), 1, "/* moved */", "int other(void) { return nope; }\n");
    const diff = await ok(bridge, "diagnostics", { files: ["broken.c"], since: before.snapshot });
    expect(diff).toEqual({
      added: [
        {
          file: "broken.c",
          ...range(14, 26, 14, 30),
          severity: "error",
          code: "undeclared_var_use",
          source: "clang",
          message: "Use of undeclared identifier 'nope'",
          channels: ["push"],
        },
      ],
      removed: [],
      unchanged: 2,
      files: ["broken.c"],
      snapshot: SNAPSHOT,
    });
    await bridge.close();
  });
});
