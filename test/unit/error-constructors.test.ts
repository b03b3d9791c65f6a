/**
 * Errors of one concern are built in one place (docs/STYLE.md "Errors are data"): a
 * `BridgeError` is constructed only in an errors file — `errors.ts` or `<concern>-errors.ts`
 * — whose named constructors the rest of src/ calls.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");
const CONSTRUCTION = /\bnew BridgeError\(/g;

const isErrorsFile = (file: string): boolean =>
  /^(?:errors|[\w-]+-errors)\.ts$/.test(basename(file));

const built = [...new Bun.Glob("**/*.ts").scanSync({ cwd: SRC })].map((file) => ({
  file,
  count: readFileSync(join(SRC, file), "utf8").match(CONSTRUCTION)?.length ?? 0,
}));

test("new BridgeError( appears in src/ only in errors.ts and *-errors.ts files", () => {
  const inline = built
    .filter((b) => b.count > 0 && !isErrorsFile(b.file))
    .map((b) => `${b.file}: ${b.count}`)
    .sort();
  expect(inline).toEqual([]);
});

test("the errors files build the errors (the scan sees them)", () => {
  const inErrorsFiles = built.filter((b) => isErrorsFile(b.file)).reduce((n, b) => n + b.count, 0);
  expect(inErrorsFiles).toBeGreaterThan(50);
});
