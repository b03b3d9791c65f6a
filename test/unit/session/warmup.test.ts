/** SPEC §3.3: which file the warm-up opens (the first usable match, in sorted order). */
import { afterAll, describe, expect, test } from "bun:test";
import { findWarmupFile } from "../../../src/session/warmup.ts";
import { removeTempTrees, tempTree } from "../../support/temp-tree.ts";
import { workspaceAt } from "../../support/workspace.ts";

afterAll(removeTempTrees);

const tree = (files: Parameters<typeof tempTree>[0]) => tempTree(files, "theodolite-scan-");

describe("findWarmupFile (SPEC §3.3)", () => {
  test("matching files that cannot be served are skipped; the next usable one is opened", async () => {
    const root = tree({
      "a_big.c": "x".repeat(200),
      "b_latin1.c": new Uint8Array([0x69, 0xe9, 0x0a]),
      "c_good.c": "int main(void) { return 0; }\n",
      "d_later.c": "",
      "notes.txt": "",
    });
    const { outcome, opened } = await findWarmupFile(
      workspaceAt(root, { maxFileBytes: 100 }),
      "**/*.c",
    );
    expect(opened?.rel).toBe("c_good.c");
    expect(outcome).toMatchObject({
      pattern: "**/*.c",
      file: "c_good.c",
      skipped: [
        { file: "a_big.c", reason: "FileTooLarge" },
        { file: "b_latin1.c", reason: "NotUtf8" },
      ],
    });
  });

  test("nothing usable: no file, every refusal listed, no error", async () => {
    const root = tree({ "a.c": "x".repeat(200) });
    const { outcome, opened } = await findWarmupFile(
      workspaceAt(root, { maxFileBytes: 100 }),
      "**/*.c",
    );
    expect(opened).toBeUndefined();
    expect(outcome.file).toBeNull();
    expect(outcome.skipped).toEqual([{ file: "a.c", reason: "FileTooLarge" }]);
  });
});
