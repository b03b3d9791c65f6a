import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  openDirBeneath,
  readTextOutsideWorkspace,
  readWorkspaceText,
} from "../../src/workspace/confined.ts";
import { displayPath, resolveWorkspaceFile, sha256Hex } from "../../src/workspace/files.ts";
import { OPEN } from "../../src/workspace/syscalls.ts";
import { pathToUri, uriToPath } from "../../src/workspace/uri.ts";
import { thrown } from "../support/thrown.ts";

let base = "";
let ws = "";
let outside = "";

beforeAll(() => {
  // realpath: the temp dir itself may sit behind a symlink
  base = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-files-")));
  ws = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(join(ws, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "a.txt"), "abc");
  writeFileSync(join(ws, "sub", "b.txt"), "b");
  writeFileSync(join(outside, "secret.txt"), "secret");
  symlinkSync(join(outside, "secret.txt"), join(ws, "escape"));
  symlinkSync(outside, join(ws, "escdir"));
  symlinkSync(join(outside, "missing"), join(ws, "dangle"));
  symlinkSync("a.txt", join(ws, "inlink"));
  symlinkSync(ws, join(base, "wslink"));
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("resolveWorkspaceFile", () => {
  test("relative, absolute and dotted paths inside the root", () => {
    const expected = { abs: join(ws, "a.txt"), rel: "a.txt" };
    expect(resolveWorkspaceFile(ws, "a.txt")).toEqual(expected);
    expect(resolveWorkspaceFile(ws, join(ws, "a.txt"))).toEqual(expected);
    expect(resolveWorkspaceFile(ws, "sub/../a.txt")).toEqual(expected);
    expect(resolveWorkspaceFile(ws, "./sub/b.txt")).toEqual({
      abs: join(ws, "sub", "b.txt"),
      rel: "sub/b.txt",
    });
  });

  test("a symlink staying inside resolves to its target", () => {
    expect(resolveWorkspaceFile(ws, "inlink")).toEqual({ abs: join(ws, "a.txt"), rel: "a.txt" });
  });

  test("a root reached through a symlink confines to its real path", () => {
    const link = join(base, "wslink");
    expect(resolveWorkspaceFile(link, "a.txt").rel).toBe("a.txt");
    expect(resolveWorkspaceFile(link, join(link, "sub", "b.txt")).rel).toBe("sub/b.txt");
  });

  test("`..` escape", () => {
    const err = thrown(() => resolveWorkspaceFile(ws, "../outside/secret.txt"));
    expect(err.code).toBe("PathOutsideWorkspace");
    expect(err.details).toEqual({ file: "../outside/secret.txt", root: ws });
    expect(thrown(() => resolveWorkspaceFile(ws, "../outside/nothing")).code).toBe(
      "PathOutsideWorkspace",
    );
  });

  test("absolute path outside", () => {
    const file = join(outside, "secret.txt");
    const err = thrown(() => resolveWorkspaceFile(ws, file));
    expect(err.code).toBe("PathOutsideWorkspace");
    expect(err.details).toEqual({ file, root: ws });
  });

  test("symlink escapes, for files, directories, missing and dangling targets", () => {
    for (const file of ["escape", "escdir/secret.txt", "escdir/nothing", "dangle"]) {
      const err = thrown(() => resolveWorkspaceFile(ws, file));
      expect(err.code).toBe("PathOutsideWorkspace");
      expect(err.details).toEqual({ file, root: ws });
    }
  });

  test("missing file and directory are FileNotFound", () => {
    const missing = thrown(() => resolveWorkspaceFile(ws, "missing.txt"));
    expect(missing.code).toBe("FileNotFound");
    const dir = thrown(() => resolveWorkspaceFile(ws, "sub"));
    expect(dir.code).toBe("FileNotFound");
    expect(dir.hint).toContain("directory");
    expect(thrown(() => resolveWorkspaceFile(ws, "a.txt/x")).code).toBe("FileNotFound");
  });

  test("empty path is an invalid argument", () => {
    expect(thrown(() => resolveWorkspaceFile(ws, "")).code).toBe("InvalidArgument");
  });
});

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
    expect(performance.now() - started).toBeLessThan(1000);
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

describe("paths and URIs", () => {
  test("sha256Hex of text and bytes agree", () => {
    expect(sha256Hex("abc")).toBe(sha256Hex(new TextEncoder().encode("abc")));
  });

  test("displayPath: relative inside, absolute outside", () => {
    expect(displayPath(ws, join(ws, "sub", "b.txt"))).toBe("sub/b.txt");
    expect(displayPath(join(base, "wslink"), join(ws, "a.txt"))).toBe("a.txt");
    expect(displayPath(ws, join(outside, "secret.txt"))).toBe(join(outside, "secret.txt"));
    expect(displayPath(ws, `${ws}-sibling/x`)).toBe(`${ws}-sibling/x`);
  });

  test("pathToUri percent-encodes; uriToPath inverts it", () => {
    const path = "/tmp/a b/ü#1?.c";
    const uri = pathToUri(path);
    expect(uri).toBe("file:///tmp/a%20b/%C3%BC%231%3F.c");
    expect(uriToPath(uri)).toBe(path);
  });

  test("uriToPath is null for non-file and remote URIs", () => {
    expect(uriToPath("untitled:Untitled-1")).toBeNull();
    expect(uriToPath("jdt://contents/x")).toBeNull();
    expect(uriToPath("file://server/share/x")).toBeNull();
    expect(uriToPath("file:///a/%2F/b")).toBeNull();
  });
});
