/**
 * "What did this change break?" on real servers (SPEC §6.1): diagnostics for a change set
 * of files, then `since` that snapshot after inserting a line above an existing error and
 * adding one new error — exactly 1 added, 0 removed, the moved errors unchanged. And a
 * change reverted leaves nothing on every server, tsserver's renderings of one type in
 * another order included (docs/LANGUAGE-SERVERS.md#typescript-language-server-type-order).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeAllBridges } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import {
  nothingSince,
  ok,
  range,
  realSuite,
  requiredServer,
  revertLeavesNothing,
  SNAPSHOT,
  startRealBridge,
} from "../support/real-bridge.ts";
import {
  findClangd,
  findPyright,
  findTypescriptLanguageServer,
  materializeCFixture,
} from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

/** Insert `line` before 1-based line `before` and append `tail` to a file. */
function edit(path: string, before: number, line: string, tail: string): void {
  const lines = readFileSync(path, "utf8").split("\n");
  lines.splice(before - 1, 0, line);
  writeFileSync(path, `${lines.join("\n")}${tail}`);
}

afterAll(closeAllBridges);

const pyright = await requiredServer("pyright", findPyright);
describe.skipIf(!pyright)("pyright", () => {
  const suite = realSuite("pyright", pyright);

  test("a line above both errors and one new error: 1 added, 0 removed, 2 unchanged", async () => {
    const root = suite.fixture("python");
    const bridge = await startRealBridge(root, suite.config());
    const files = ["errors.py", "app.py"];
    const before = await ok(bridge, "diagnostics", { files });
    expect(before.total).toBe(2);
    expect(before.files).toEqual(["app.py", "errors.py"]);

    const original = readFileSync(join(root, "errors.py"), "utf8");
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
    // reverted: nothing since the first snapshot
    writeFileSync(join(root, "errors.py"), original);
    await nothingSince(bridge, { files }, before);
    await bridge.close();
  });
});

const clangd = await requiredServer("clangd", findClangd);
describe.skipIf(!clangd)("clangd", () => {
  afterAll(removeTempDirs);

  test("a line above every error (one with a note) and one new error: 1 added, 0 removed", async () => {
    const root = materializeCFixture(undefined, "c-errors");
    const suite = realSuite("clangd", clangd);
    const bridge = await startRealBridge(root, suite.config());
    const before = await ok(bridge, "diagnostics", { files: ["broken.c"] });
    expect(before.total).toBe(2);
    // above the typo error and its note (which names a line), and above missing_member
    const original = readFileSync(join(root, "broken.c"), "utf8");
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
    // reverted: nothing since the first snapshot
    writeFileSync(join(root, "broken.c"), original);
    await nothingSince(bridge, { files: ["broken.c"] }, before);
    await bridge.close();
  });
});

const gopls = await requiredServer("gopls", findGopls);
describe.skipIf(!gopls)("gopls", () => {
  const suite = realSuite("gopls", gopls);

  test("an error added and reverted: nothing since the first snapshot", async () => {
    const root = suite.fixture("go");
    const bridge = await startRealBridge(root, suite.config());
    const tail = 'func Other() int { return "x" }\n';
    await revertLeavesNothing(bridge, root, "broken/broken.go", tail);
    await bridge.close();
  });
});

const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);
describe.skipIf(!tls)("typescript-language-server", () => {
  afterAll(removeTempDirs);

  /**
   * tsserver's checker numbers types as it creates them and prints union members, and the
   * members (and missing properties) of a type mapped over a union of keys, in that order:
   * whichever file a new program checks first decides it
   * (docs/LANGUAGE-SERVERS.md#typescript-language-server-type-order).
   */
  test("a revert after another file was checked first: the same errors, reordered, unchanged", async () => {
    if (!tls) return;
    const root = tempDir("theodolite-type-order-");
    const tsconfig = { compilerOptions: { strict: true, noEmit: true }, include: ["*.ts"] };
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify(tsconfig));
    writeFileSync(join(root, "index.ts"), 'export const order: "alpha" | "zeta" = "alpha";\n');
    const keys = '"zeta" | "alpha"';
    const errors = [
      `export const v: ${keys} = "nope";`,
      `export const p: { [K in ${keys}]?: number } = 5;`,
      `export const q: Pick<{ zeta: 1; alpha: 1; mid: 1 }, ${keys}> = {};`,
    ];
    writeFileSync(join(root, "a.ts"), `${errors.join("\n")}\n`);
    await using bridge = await startRealBridge(root, tls.config);
    const messages = (r: Record<string, unknown>) =>
      (r.diagnostics as { message: string }[]).map((d) => d.message);
    const members = (first: string, second: string) => [
      `Type '"nope"' is not assignable to type '"${first}" | "${second}"'.`,
      `Type '5' has no properties in common with type '{ ${first}?: number | undefined; ${second}?: number | undefined; }'.`,
      `Type '{}' is missing the following properties from type 'Pick<{ zeta: 1; alpha: 1; mid: 1; }, "${first}" | "${second}">': ${first}, ${second}`,
    ];
    await ok(bridge, "diagnostics", { file: "a.ts" });
    // a new program whose checker meets index.ts's "alpha" first
    appendFileSync(join(root, "index.ts"), "// touched\n");
    await ok(bridge, "diagnostics", { file: "index.ts" });
    const tail = 'export const x: number = "s";\n';
    const before = await revertLeavesNothing(bridge, root, "a.ts", tail);
    expect(messages(before)).toEqual(members("alpha", "zeta"));
    // a.ts was checked first since: the server's own text, in its other order
    expect(messages(await ok(bridge, "diagnostics", { file: "a.ts" }))).toEqual(
      members("zeta", "alpha"),
    );
  });
});
