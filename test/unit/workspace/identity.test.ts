/** The look at a file (SPEC §5.1): one lstat, compared with the identity its content was read with. */
import { afterAll, describe, expect, test } from "bun:test";
import { lstatSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { identityOf } from "../../../src/workspace/confined.ts";
import { currentIdentity, sameIdentity } from "../../../src/workspace/identity.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

function setup(name = "a.ts") {
  const root = tempDir("theodolite-identity-", { [name]: "const a = 1;\n" });
  return { root, abs: join(root, name) };
}

describe("currentIdentity", () => {
  test("a regular file's identity; null for a missing path and for a link", () => {
    const { root, abs } = setup();
    expect(sameIdentity(currentIdentity(abs), identityOf(lstatSync(abs)))).toBe(true);
    expect(currentIdentity(join(root, "missing.ts"))).toBeNull();
    const link = join(root, "link.ts");
    symlinkSync(abs, link);
    expect(currentIdentity(link)).toBeNull();
  });

  test("a rewrite of another size, and a file replaced by rename, have another identity", () => {
    const { root, abs } = setup();
    const before = currentIdentity(abs);
    writeFileSync(abs, "const a = 12;\n");
    expect(sameIdentity(before, currentIdentity(abs))).toBe(false);
    const again = currentIdentity(abs);
    const other = join(root, "b.tmp");
    writeFileSync(other, "const a = 12;\n");
    renameSync(other, abs);
    expect(sameIdentity(again, currentIdentity(abs))).toBe(false);
    expect(sameIdentity(null, currentIdentity(abs))).toBe(false);
  });
});
