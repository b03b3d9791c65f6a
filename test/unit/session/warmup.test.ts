/** SPEC §3.3: which file the warm-up opens (the first usable match, in sorted order). */
import { afterAll, describe, expect, test } from "bun:test";
import { findWarmupFile } from "../../../src/session/warmup.ts";
import { type FileMap, removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { workspaceAt } from "../../support/workspace.ts";

afterAll(removeTempDirs);

const tree = (files: FileMap) => tempDir("theodolite-scan-", files);
/** The warm-up of every C file of `files`, those above 100 bytes too large. */
const warmupC = (files: FileMap) =>
  findWarmupFile(workspaceAt(tree(files), { maxFileBytes: 100 }), "**/*.c");

describe("findWarmupFile (SPEC §3.3)", () => {
  test("matching files that cannot be served are skipped; the next usable one is opened", async () => {
    const { outcome, opened } = await warmupC({
      "a_big.c": "x".repeat(200),
      "b_latin1.c": new Uint8Array([0x69, 0xe9, 0x0a]),
      "c_good.c": "int main(void) { return 0; }\n",
      "d_later.c": "",
      "notes.txt": "",
    });
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
    const { outcome, opened } = await warmupC({ "a.c": "x".repeat(200) });
    expect(opened).toBeUndefined();
    expect(outcome.file).toBeNull();
    expect(outcome.skipped).toEqual([{ file: "a.c", reason: "FileTooLarge" }]);
  });

  describe("with project_files: the file that represents the project", () => {
    // the place of a file's language among typescript-language-server's
    const order: Record<string, number> = { ts: 0, tsx: 1, js: 2, jsx: 3 };
    const choice = {
      files: ["tsconfig.json", "jsconfig.json"],
      language: (rel: string) => order[rel.slice(rel.lastIndexOf(".") + 1)] ?? 4,
    };
    const glob = "**/*.{ts,tsx,js,jsx}";
    const chosen = async (files: FileMap) =>
      (await findWarmupFile(workspaceAt(tree(files)), glob, choice)).outcome;

    test("root config files first in sorted order are passed over for what the tsconfig includes", async () => {
      const outcome = await chosen({
        "compile.d.ts": "export declare const x: number;\n",
        "eslint.config.js": "export default [];\n",
        "tsconfig.json": '{ // comment\n "include": ["src"], }\n',
        "src/a.ts": "export const a = 1;\n",
      });
      expect(outcome).toMatchObject({ file: "src/a.ts", project: "tsconfig.json" });
    });

    test("no project anywhere: an entry point in TypeScript, not a root declaration or build output", async () => {
      const outcome = await chosen({
        "compile.d.ts": "",
        "index.js": "",
        "locales/index.js": "",
        "src/compile.ts": "",
        "src/index.ts": "",
      });
      expect(outcome).toMatchObject({ file: "src/index.ts", project: null });
    });

    test("a monorepo without a root tsconfig: a package's included file", async () => {
      const outcome = await chosen({
        "eslint.config.js": "",
        "packages/a/tsconfig.json": '{"include": ["src"]}',
        "packages/a/src/x.ts": "",
        "scripts/build.ts": "",
      });
      expect(outcome).toMatchObject({
        file: "packages/a/src/x.ts",
        project: "packages/a/tsconfig.json",
      });
    });

    test("without project_files the first sorted match is opened, as before", async () => {
      const root = tree({ "compile.d.ts": "", "tsconfig.json": "{}", "src/a.ts": "" });
      const { outcome } = await findWarmupFile(workspaceAt(root), glob);
      expect(outcome.file).toBe("compile.d.ts");
      expect("project" in outcome).toBe(false);
    });
  });
});
