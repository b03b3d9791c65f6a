/** SPEC §4.3, §8: paths as strings — what lies below what, and how results name a path. */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { workspaceRoot } from "../../../src/workspace/files.ts";
import { atOrBelow, displayPath } from "../../../src/workspace/paths.ts";
import { confinementTree, removeTempDirs } from "../../support/temp-dirs.ts";

const { base, ws, outside } = confinementTree();
afterAll(removeTempDirs);

test("displayPath: relative inside, absolute outside", () => {
  const root = workspaceRoot(ws);
  expect(displayPath(root, join(ws, "sub", "b.txt"))).toBe("sub/b.txt");
  expect(displayPath(workspaceRoot(join(base, "wslink")), join(ws, "a.txt"))).toBe("a.txt");
  expect(displayPath(root, join(outside, "secret.txt"))).toBe(join(outside, "secret.txt"));
  expect(displayPath(root, `${ws}-sibling/x`)).toBe(`${ws}-sibling/x`);
});

test("atOrBelow: the directory itself and what lies below it, never a sibling prefix", () => {
  expect(atOrBelow("/ws", "/ws")).toBe(true);
  expect(atOrBelow("/ws", "/ws/a/b.py")).toBe(true);
  expect(atOrBelow("/ws", "/ws-sibling/x")).toBe(false);
  expect(atOrBelow("/ws/a", "/ws")).toBe(false);
  expect(atOrBelow("/", "/anything")).toBe(true);
});
