/**
 * What each language writes, on its real server (SPEC §4.2, §4.3): `symbol` without `line`
 * finds a method as its language names it — `Rect.Scale` for gopls's `(*Rect).Scale`,
 * `Rect.area` and `Rect.square` for rust-analyzer's methods under `impl Area for Rect` and
 * `impl Rect` — beside the server's own spelling; and hover text is plain and portable:
 * no character references, backslash escapes, `#` headers or machine paths, whatever
 * markdown gopls and pyright send (clangd's headers: test/real/clangd.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BridgeHandle } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import {
  fails,
  ok,
  range,
  realSuite,
  requiredServer,
  startRealBridge,
} from "../support/real-bridge.ts";
import { findPyright, findRustAnalyzer } from "../support/real-servers.ts";

const gopls = await requiredServer("gopls", findGopls);
const rustAnalyzer = await requiredServer("rust-analyzer", findRustAnalyzer);
const pyright = await requiredServer("pyright", findPyright);

/** Markup and machine paths a plain hover text never holds. */
function expectPlain(text: string, root: string): void {
  expect(text).not.toMatch(/&[A-Za-z]+;|&#\d+;/); // character references
  expect(text).not.toMatch(/\\[!-/:-@[-`{-~]/); // backslash escapes
  expect(text).not.toMatch(/^#{1,6}\s/m); // headers
  expect(text).not.toContain("file://");
  expect(text).not.toContain(root);
  expect(text).not.toMatch(/(^|[\s(])\/(tmp|home|root|usr|work)\//m);
}

describe.skipIf(!gopls)("gopls: Go methods by Type.method, plain hovers", () => {
  const suite = realSuite("gopls", gopls);
  let bridge: BridgeHandle;
  let root: string;
  beforeAll(async () => {
    root = suite.fixture("go");
    bridge = await startRealBridge(root, suite.config());
  });
  afterAll(() => bridge?.close());

  test("Rect.Scale (pointer receiver), (*Rect).Scale and Scale name one method", async () => {
    for (const symbol of ["Rect.Scale", "(*Rect).Scale", "Scale"]) {
      const r = await ok(bridge, "hover", { file: "shapes/shapes.go", symbol });
      expect(r.range).toEqual(range(30, 16, 30, 21));
    }
    const area = await ok(bridge, "definition", { file: "shapes/shapes.go", symbol: "Rect.Area" });
    expect(area.locations).toEqual([{ file: "shapes/shapes.go", ...range(16, 15, 16, 19) }]);
  });

  test("hover: the doc link is its text, k*k unescaped, no path of this machine", async () => {
    const r = await ok(bridge, "hover", { file: "shapes/shapes.go", symbol: "Rect.Scale" });
    expect(r.text).toBe(
      "func (r *Rect) Scale(k int)\n\n---\n\n" +
        "Scale multiplies both sides by k, so Rect.Area grows by k*k.",
    );
    expectPlain(r.text as string, root);
  });
});

describe.skipIf(!rustAnalyzer)("rust-analyzer: methods of impl blocks by their type", () => {
  const suite = realSuite("rust-analyzer", rustAnalyzer);
  let bridge: BridgeHandle;
  beforeAll(async () => {
    const root = suite.fixture("rust");
    // an inherent impl beside the fixture's trait impl, appended: no line above moves
    appendFileSync(
      join(root, "src", "shapes.rs"),
      "\nimpl Rect {\n    pub fn square(side: u32) -> Self {\n        Self { width: side, height: side }\n    }\n}\n",
    );
    bridge = await startRealBridge(root, suite.config());
  });
  afterAll(() => bridge?.close());

  test("Rect.area is the method of `impl Area for Rect`; Area.area the trait's own", async () => {
    const impl = await ok(bridge, "definition", { file: "src/shapes.rs", symbol: "Rect.area" });
    expect(impl.locations).toEqual([{ file: "src/shapes.rs", ...range(13, 8, 13, 12) }]);
    const decl = await ok(bridge, "hover", { file: "src/shapes.rs", symbol: "Area.area" });
    expect(decl.range).toEqual(range(3, 8, 3, 12));
  });

  test("Rect.square is the method of `impl Rect`, as is the server's `impl Rect.square`", async () => {
    for (const symbol of ["Rect.square", "impl Rect.square"]) {
      const r = await ok(bridge, "hover", { file: "src/shapes.rs", symbol });
      expect(r.range).toEqual(range(19, 12, 19, 18));
      expect(r.text as string).toContain("pub fn square(side: u32) -> Self");
    }
  });

  test("a bare name in two impls: AmbiguousSymbol, candidates at their names", async () => {
    const err = await fails(bridge, "hover", { file: "src/shapes.rs", symbol: "area" });
    expect(err.code).toBe("AmbiguousSymbol");
    expect(err.details?.candidates).toEqual([
      { name: "area", kind: "method", container: "Area", line: 3, column: 8 },
      { name: "area", kind: "method", container: "impl Area for Rect", line: 13, column: 8 },
    ]);
  });
});

describe.skipIf(!pyright)("pyright: a docstring's hover is plain text", () => {
  const suite = realSuite("pyright", pyright);
  let bridge: BridgeHandle;
  let root: string;
  beforeAll(async () => {
    root = suite.fixture("python");
    // pyright renders docstrings as markdown: &nbsp; for indentation, \[ \* \_ escapes
    writeFileSync(
      join(root, "documented.py"),
      'def scaled(x: int) -> int:\n    """Return x [scaled] by *two*.\n\n    Args:\n        x: the value_name, see <b>\n    """\n    return 2 * x\n\n\nscaled(1)\n',
    );
    bridge = await startRealBridge(root, suite.config());
  });
  afterAll(() => bridge?.close());

  test("no &nbsp;, no escapes: the docstring as written", async () => {
    const r = await ok(bridge, "hover", { file: "documented.py", line: 10, symbol: "scaled" });
    expect(r.text).toBe(
      "(function) def scaled(x: int) -> int\n---\nReturn x [scaled] by *two*.\n\nArgs:\n    x: the value_name, see <b>",
    );
    expectPlain(r.text as string, root);
  });
});
