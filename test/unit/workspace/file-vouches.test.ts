/**
 * Line tables vouched by watches (SPEC §5.1, file-vouches.ts): a file looked at twice is
 * vouched for, and later calls take its table without a look at the disk. Every way the
 * path can come to show other bytes must end the vouch before the next call converts with
 * it: each row changes the disk after the vouch, and the next call's table must be the one
 * a fresh look gives (a column after non-ASCII text tells them apart).
 */
import { afterEach, expect, test } from "bun:test";
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { columnsToClient, lineColumnsOf } from "../../../src/text/line-columns.ts";
import { LSP_LINES } from "../../../src/text/line-model.ts";
import { CallLines, NONE_OPEN } from "../../../src/workspace/call-lines.ts";
import { FileVouches } from "../../../src/workspace/file-vouches.ts";
import { currentIdentity } from "../../../src/workspace/identity.ts";
import { LineTables, RACY_MARGIN_MS } from "../../../src/workspace/line-tables.ts";
import { InotifyHub } from "../../../src/workspace/watch-hub.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { workspaceAt } from "../../support/workspace.ts";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  removeTempDirs();
});

const BEFORE = "const é = 1; let b;\n";
const AFTER = "const ééé = 22; let b;\n";

function setup(ownerLimit?: number) {
  // the root two levels down: its parent can be moved aside and replaced
  const root = join(realpathSync(tempDir("theodolite-vouches-")), "w", "proj");
  mkdirSync(join(root, "src"), { recursive: true });
  const abs = join(root, "src", "a.ts");
  writeFileSync(abs, BEFORE);
  const ws = workspaceAt(root);
  const hub = ownerLimit === undefined ? new InotifyHub() : new InotifyHub(undefined, ownerLimit);
  const vouches = new FileVouches(root, hub);
  closers.push(() => {
    vouches.close();
    ws.close();
  });
  // a clock ahead: a file just written counts as settled, so its table is kept
  const tables = new LineTables(
    {
      identify: (p) => ws.tryIdentify(p),
      read: (p) => ws.tryRead(p),
      vouches,
    },
    undefined,
    () => Date.now() + 2 * RACY_MARGIN_MS,
  );
  const call = () =>
    new CallLines(tables, LSP_LINES, 1 << 24, NONE_OPEN, undefined, () => vouches.sync());
  return { root, abs, tables, vouches, call };
}

/** The client column of `b` in `abs`'s first line, by a call's table. */
function columnOfB(call: CallLines, abs: string, text: string): number | null {
  const lines = call.get(abs);
  const at = text.indexOf("b");
  if (lines === undefined || lines === "budget" || at < 0) return null;
  return columnsToClient(lines, { line: 0, character: at }, "utf-16", "code-point").column;
}

/** What a fresh look at the disk gives: the column of `b` in the file's text now. */
function truth(abs: string): number | null {
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch {
    return null;
  }
  const at = text.indexOf("b");
  if (at < 0) return null;
  return columnsToClient(lineColumnsOf(text), { line: 0, character: at }, "utf-16", "code-point")
    .column;
}

function vouched(s: ReturnType<typeof setup>): boolean {
  const seen = s.tables.look(s.abs);
  return seen?.vouch !== undefined && s.vouches.holds(seen.vouch);
}

const CHANGES: [string, (s: ReturnType<typeof setup>) => void][] = [
  [
    "written in place, its times put back",
    ({ abs }) => {
      const { atime, mtime } = statSync(abs);
      writeFileSync(abs, AFTER);
      utimesSync(abs, atime, mtime);
    },
  ],
  [
    "written through a link made outside the root after the vouch",
    ({ abs }) => {
      const elsewhere = join(tempDir("theodolite-vouches-outside-"), "other-name.ts");
      linkSync(abs, elsewhere);
      writeFileSync(elsewhere, AFTER);
    },
  ],
  [
    "a new file renamed over it",
    ({ root, abs }) => {
      writeFileSync(join(root, "new.ts"), AFTER);
      renameSync(join(root, "new.ts"), abs);
    },
  ],
  [
    "removed and made again",
    ({ abs }) => {
      rmSync(abs);
      writeFileSync(abs, AFTER);
    },
  ],
  ["truncated", ({ abs }) => truncateSync(abs, 0)],
  [
    "its directory moved away and another put in its place",
    ({ root, abs }) => {
      renameSync(join(root, "src"), join(root, "src-old"));
      mkdirSync(join(root, "src"));
      writeFileSync(abs, AFTER);
    },
  ],
  [
    "its directory replaced by a link to another directory",
    ({ root }) => {
      mkdirSync(join(root, "other"));
      writeFileSync(join(root, "other", "a.ts"), AFTER);
      renameSync(join(root, "src"), join(root, "src-old"));
      symlinkSync(join(root, "other"), join(root, "src"));
    },
  ],
  [
    "the root's parent moved aside and a copy with other text put in its place",
    ({ root, abs }) => {
      const parent = join(root, "..");
      renameSync(parent, `${parent}-old`);
      mkdirSync(join(root, "src"), { recursive: true });
      writeFileSync(abs, AFTER);
    },
  ],
  [
    "the root's child directory moved and moved back with another file",
    ({ root, abs }) => {
      renameSync(join(root, "src"), join(root, "away"));
      writeFileSync(join(root, "away", "a.ts"), AFTER);
      renameSync(join(root, "away"), join(root, "src"));
      // the same directory, the same inode back: only the file's own watch saw the write
      expect(readFileSync(abs, "utf8")).toBe(AFTER);
    },
  ],
];

test.each(CHANGES)("a vouched file %s: the next call's table is a fresh look's", (_, change) => {
  const s = setup();
  expect(columnOfB(s.call(), s.abs, BEFORE)).toBe(truth(s.abs));
  // looked at a second time: vouched from then on
  expect(columnOfB(s.call(), s.abs, BEFORE)).toBe(truth(s.abs));
  expect(vouched(s)).toBe(true);
  change(s);
  const after = s.call();
  const text = (() => {
    try {
      return readFileSync(s.abs, "utf8");
    } catch {
      return "";
    }
  })();
  expect(columnOfB(after, s.abs, text)).toBe(truth(s.abs));
  expect(s.tables.look(s.abs)?.identity ?? null).toEqual(currentIdentity(s.abs));
});

test("a mode change ends the vouch: the identity shown is the disk's", () => {
  const s = setup();
  s.call().get(s.abs);
  s.call().get(s.abs);
  expect(vouched(s)).toBe(true);
  chmodSync(s.abs, 0o600);
  // a call takes the events queued at its first look (here at a file it does not find)
  s.call().get(join(s.root, "missing.ts"));
  expect(vouched(s)).toBe(false);
  expect(s.tables.look(s.abs)?.identity).toEqual(currentIdentity(s.abs) ?? undefined);
});

test("nothing changed: the vouch holds across calls and the table stays", () => {
  const s = setup();
  s.call().get(s.abs);
  const second = s.call().get(s.abs);
  for (let i = 0; i < 5; i++) {
    expect(s.call().get(s.abs)).toBe(second);
    expect(vouched(s)).toBe(true);
  }
});

test("events past what the queue holds end every vouch; the next look vouches again", () => {
  const s = setup(2);
  s.call().get(s.abs);
  s.call().get(s.abs);
  const vouch = s.tables.look(s.abs)?.vouch;
  expect(vouch !== undefined && s.vouches.holds(vouch)).toBe(true);
  // three attribute changes of other files in a watched directory: past the owner's limit
  for (const name of ["x", "y", "z"]) writeFileSync(join(s.root, "src", name), "");
  for (const name of ["x", "y", "z"]) chmodSync(join(s.root, "src", name), 0o600);
  s.call().get(join(s.root, "missing.ts"));
  expect(vouch !== undefined && s.vouches.holds(vouch)).toBe(false);
  // the path shows what it showed: looked at once more, vouched again
  expect(vouched(s)).toBe(true);
});

test("a path through a link inside the root is never vouched: it is looked at each call", () => {
  const s = setup();
  symlinkSync(join(s.root, "src"), join(s.root, "via"));
  const through = join(s.root, "via", "a.ts");
  s.call().get(through);
  s.call().get(through);
  const seen = s.tables.look(through);
  expect(seen).toBeDefined();
  expect(seen?.vouch).toBeUndefined();
  expect(seen?.unvouched).toBe(true);
});

test("a write through a link no watched directory names reaches the workspace's subscribers", () => {
  const root = realpathSync(tempDir("theodolite-vouches-heard-"));
  mkdirSync(join(root, "src"));
  const abs = join(root, "src", "a.ts");
  writeFileSync(abs, BEFORE);
  const ws = workspaceAt(root);
  closers.push(() => ws.close());
  const got: string[] = [];
  ws.watch(
    () => true,
    (changes) => got.push(...changes.map((c) => `${c.kind} ${c.abs.slice(root.length + 1)}`)),
  );
  // looked at by two calls: vouched for
  for (let i = 0; i < 2; i++) ws.callLines(LSP_LINES, NONE_OPEN).get(abs);
  ws.poll();
  expect(got).toEqual([]);
  const elsewhere = join(tempDir("theodolite-vouches-outside-"), "other-name.ts");
  linkSync(abs, elsewhere);
  writeFileSync(elsewhere, AFTER);
  ws.poll();
  // once, though the link's making and the write were two events
  expect(got).toEqual(["changed src/a.ts"]);
  // an ordinary write: the directory's event and the file's own are one change
  writeFileSync(abs, BEFORE);
  for (let i = 0; i < 2; i++) ws.callLines(LSP_LINES, NONE_OPEN).get(abs);
  got.length = 0;
  writeFileSync(abs, AFTER);
  ws.poll();
  expect(got).toEqual(["changed src/a.ts"]);
});
