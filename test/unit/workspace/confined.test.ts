/** SPEC §8.1: every workspace read is opened beneath the root, bounded, and never blocks. */
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OPEN } from "../../../src/ffi/syscalls.ts";
import {
  openDirBeneath,
  readTextOutsideWorkspace,
  readWorkspaceText,
} from "../../../src/workspace/confined.ts";
import { confinementTree, removeTempDirs } from "../../support/temp-dirs.ts";
import { thrown } from "../../support/thrown.ts";

const { base, ws, outside } = confinementTree();
afterAll(removeTempDirs);

describe("readWorkspaceText", () => {
  const read = (file: string, max: number) => readWorkspaceText(ws, file, max);

  test("text, byte count and SHA-256", () => {
    expect(read("a.txt", 100)).toMatchObject({
      abs: join(ws, "a.txt"),
      rel: "a.txt",
      text: "abc",
      bytes: 3,
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    });
  });

  test("a leading BOM is kept as text", () => {
    writeFileSync(join(ws, "bom.txt"), new Uint8Array([0xef, 0xbb, 0xbf, 0x41]));
    const bom = read("bom.txt", 100);
    expect(bom.text).toBe("\uFEFFA");
    expect(bom.bytes).toBe(4);
  });

  test("FileTooLarge above max bytes, accepted exactly at it", () => {
    writeFileSync(join(ws, "ten.txt"), "0123456789");
    expect(read("ten.txt", 10).bytes).toBe(10);
    const err = thrown(() => read("ten.txt", 9));
    expect(err.code).toBe("FileTooLarge");
    expect(err.details).toEqual({ bytes: 10, max_bytes: 9 });
  });

  test("NotUtf8 for invalid bytes and encoded surrogates", () => {
    writeFileSync(join(ws, "bad.bin"), new Uint8Array([0x61, 0xff, 0x62]));
    expect(thrown(() => read("bad.bin", 100)).code).toBe("NotUtf8");
    writeFileSync(join(ws, "surrogate.bin"), new Uint8Array([0xed, 0xa0, 0x80]));
    expect(thrown(() => read("surrogate.bin", 100)).code).toBe("NotUtf8");
  });

  test("missing file is FileNotFound", () => {
    expect(thrown(() => read("nope", 100)).code).toBe("FileNotFound");
  });

  test("outside the root, even by absolute path or a link, is never read", () => {
    for (const file of [join(outside, "secret.txt"), "escape", "escdir/secret.txt", "/dev/zero"]) {
      expect(thrown(() => read(file, 100)).code).toBe("PathOutsideWorkspace");
    }
  });

  test("a link staying inside is read through its target", () => {
    expect(read("inlink", 100)).toMatchObject({ abs: join(ws, "a.txt"), text: "abc" });
  });
});

describe("confined opening (SPEC §8.1)", () => {
  test("a FIFO is refused at once, without blocking on open or read", () => {
    const fifo = join(ws, "pipe.c");
    expect(Bun.spawnSync(["mkfifo", fifo]).success).toBe(true);
    const started = performance.now();
    const err = thrown(() => readWorkspaceText(ws, "pipe.c", 100));
    expect(err.code).toBe("FileNotFound");
    expect(err.hint).toContain("not a regular file");
    expect(performance.now() - started).toBeLessThan(10_000); // a blocking open would never return
  });

  test("reads outside a workspace (discovery) never block either, and stay bounded", () => {
    const fifo = join(base, "package.json");
    expect(Bun.spawnSync(["mkfifo", fifo]).success).toBe(true);
    expect(readTextOutsideWorkspace(fifo, 100)).toBeUndefined();
    expect(readTextOutsideWorkspace(join(outside, "secret.txt"), 100)).toBe("secret");
    expect(readTextOutsideWorkspace(join(outside, "secret.txt"), 3)).toBeUndefined();
    expect(readTextOutsideWorkspace(join(base, "missing.json"), 100)).toBeUndefined();
  });

  test("a directory is FileNotFound", () => {
    expect(thrown(() => readWorkspaceText(ws, "sub", 100)).hint).toContain("directory");
  });

  test("the walk never follows a link: a linked directory component fails, inside or out", () => {
    for (const parts of [["escdir"], ["escdir", "inner"]]) {
      let code: string | undefined;
      try {
        closeSync(openDirBeneath(ws, parts, OPEN.dirStep));
      } catch (err) {
        code = (err as NodeJS.ErrnoException).code;
      }
      expect(["ENOTDIR", "ELOOP"]).toContain(code ?? "no error");
    }
    closeSync(openDirBeneath(ws, ["sub"], OPEN.dirStep));
  });
});
