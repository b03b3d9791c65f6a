/**
 * State is owned by an object someone passes (docs/STYLE.md): no module of src/workspace/,
 * src/normalize/ or src/session/ keeps mutable state at its top level, and src/normalize/ is
 * pure — nothing it imports, directly or through others, touches the disk, spawns, or calls
 * libc.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileGraph, importSpecifiers } from "../support/import-graph.ts";

const SRC = join(import.meta.dir, "..", "..", "src");
const FOLDERS = ["workspace", "normalize", "session"];

/** Top-level statements that make state: `let`/`var`, a Map or WeakMap, an empty array. */
const MUTABLE_TOP_LEVEL =
  /^(?:export )?(?:let|var) |^(?:export )?const \w+(?:: [^=]+)? = (?:new (?:Map|WeakMap|WeakSet)\b|\[\]|new Set\(\))/;

/** Modules and globals with effects on the machine. */
const EFFECTFUL = /^(?:node:fs|node:fs\/promises|node:child_process|bun:ffi|node:os)$/;
const EFFECTFUL_CALL = /\bBun\.(?:spawn|spawnSync|file|write)\b/;

const sources = new Map(
  [...new Bun.Glob("**/*.ts").scanSync({ cwd: SRC })].map((f) => [
    f,
    readFileSync(join(SRC, f), "utf8"),
  ]),
);

test("the check recognises module state and effects", () => {
  expect(MUTABLE_TOP_LEVEL.test("let clock = 0;")).toBe(true);
  expect(MUTABLE_TOP_LEVEL.test("const watchers = new Map<string, W>();")).toBe(true);
  expect(MUTABLE_TOP_LEVEL.test('const KEYS = new Set(["a", "b"]);')).toBe(false);
  expect(EFFECTFUL.test("node:fs")).toBe(true);
  expect(EFFECTFUL.test("node:path")).toBe(false);
});

test("no module-level mutable state in src/workspace/, src/normalize/, src/session/", () => {
  const found: string[] = [];
  for (const [file, source] of sources) {
    if (!FOLDERS.some((f) => file.startsWith(`${f}/`))) continue;
    source.split("\n").forEach((line, i) => {
      if (MUTABLE_TOP_LEVEL.test(line)) found.push(`${file}:${i + 1}: ${line}`);
    });
  }
  expect(found).toEqual([]);
});

test("src/normalize/ imports no effectful module, directly or through others", () => {
  const graph = fileGraph(SRC);
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
  };
  for (const file of graph.keys()) if (file.startsWith("normalize/")) visit(file);
  expect(reached.size).toBeGreaterThan(10);
  const effects: string[] = [];
  for (const file of reached) {
    const source = sources.get(file) ?? "";
    for (const spec of importSpecifiers(source)) {
      if (EFFECTFUL.test(spec)) effects.push(`${file} imports ${spec}`);
    }
    if (EFFECTFUL_CALL.test(source))
      effects.push(`${file} calls ${EFFECTFUL_CALL.exec(source)?.[0]}`);
  }
  expect(effects).toEqual([]);
});
