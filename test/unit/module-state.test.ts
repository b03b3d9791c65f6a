/**
 * State is owned by an object someone passes (docs/STYLE.md): no module of src/ keeps
 * mutable state at its top level — but the two facts of the process itself, each said why
 * below — and src/normalize/ is pure: nothing it imports, directly or through others,
 * touches the disk, spawns, or calls libc.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileGraph, importSpecifiers } from "../support/import-graph.ts";

const SRC = join(import.meta.dir, "..", "..", "src");
/**
 * Module state that is the process's own, not any object's: the one log the process writes
 * (its level and sink are set once at start), and the children the process keeps in
 * sessions of their own (the orphan reaper spares them: the process is the subreaper).
 */
const PROCESS_STATE = new Map([
  ["log.ts", "export const log = new Logger();"],
  ["process/orphans.ts", "const kept = new Set<number>();"],
]);

/**
 * Top-level statements that make state: `let`/`var`, an empty array, a collection not
 * built from a literal table, an instance of a class (stateless text codecs aside).
 */
const MUTABLE_TOP_LEVEL =
  /^(?:export )?(?:let|var) |^(?:export )?const \w+(?:: [^=]+)? = (?:\[\]|new (?:Map|WeakMap|WeakSet|Set)\b(?:<[^>]*>)?\((?!\[)|new (?!(?:Map|Set|RegExp|TextDecoder|TextEncoder)\b)[A-Z])/;

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
  expect(MUTABLE_TOP_LEVEL.test("const kept = new Set<number>();")).toBe(true);
  expect(MUTABLE_TOP_LEVEL.test("const seen = new WeakMap<object, string>();")).toBe(true);
  expect(MUTABLE_TOP_LEVEL.test("export const log = new Logger();")).toBe(true);
  expect(MUTABLE_TOP_LEVEL.test("const decoder = new TextDecoder();")).toBe(false);
  expect(MUTABLE_TOP_LEVEL.test("const ORDER = new Map<string, number>([")).toBe(false);
  expect(EFFECTFUL.test("node:fs")).toBe(true);
  expect(EFFECTFUL.test("node:path")).toBe(false);
});

test("no module-level mutable state in src/ but the process's own", () => {
  const found: string[] = [];
  for (const [file, source] of sources) {
    source.split("\n").forEach((line, i) => {
      if (MUTABLE_TOP_LEVEL.test(line) && PROCESS_STATE.get(file) !== line) {
        found.push(`${file}:${i + 1}: ${line}`);
      }
    });
  }
  expect(found).toEqual([]);
  // each exception is still there as written (else it goes from the list)
  for (const [file, line] of PROCESS_STATE) expect(sources.get(file)).toContain(line);
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
