/**
 * call_hierarchy and symbols addressed without a line (SPEC §4.2, §4.3) on the real
 * servers, against the answers measured in test/fixtures/README.md: incoming and outgoing
 * calls (clangd 14 has no outgoing calls: ServerLacksCapability), entries at their names
 * with the call sites, the emoji lines in code points; `hover {file, symbol: "A.b"}`
 * resolving a method and a bare duplicated name listing both candidates.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { BridgeHandle } from "../support/bridge.ts";
import {
  fails,
  ok,
  range,
  realSuite,
  requiredServer,
  startRealBridge,
} from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  findTypescriptNative,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";

interface CallOut {
  name: string;
  kind: string;
  file: string;
  sites: unknown[];
}

/** A call entry or item: name, kind and the location of its name. */
function at(
  name: string,
  kind: string,
  file: string,
  l: number,
  c: number,
  el: number,
  ec: number,
) {
  return { name, kind, file, ...range(l, c, el, ec) };
}

/** A call_hierarchy's arguments: `symbol` in `file`, on `line` where given. */
function callArgs(direction: string, file: string, symbol: string, line?: number) {
  return { file, symbol, direction, ...(line === undefined ? {} : { line }) };
}

/** One bridge per server for the describe block, on a fixture copy removed afterwards. */
function bridgeOn(name: string, found: RealServer | null, fixture: () => string) {
  const suite = realSuite(name, found);
  const state: { bridge?: BridgeHandle; dir?: string } = {};
  beforeAll(async () => {
    state.dir = fixture();
    state.bridge = await startRealBridge(state.dir, suite.config());
  });
  afterAll(async () => {
    await state.bridge?.close();
    if (state.dir) rmSync(state.dir, { recursive: true, force: true });
  });
  return () => state.bridge as BridgeHandle;
}

const clangd = await requiredServer("clangd", findClangd);
describe.skipIf(!clangd)("clangd 14: incoming calls only", () => {
  const get = bridgeOn("clangd", clangd, () => materializeCFixture(undefined, "c"));

  test("incoming from the call on the emoji line: the prototype, called by main", async () => {
    const r = await ok(get(), "call_hierarchy", callArgs("incoming", "main.c", "manhattan", 6));
    expect(r).toEqual({
      item: at("manhattan", "function", "geometry.h", 10, 23, 10, 32),
      calls: [{ ...at("main", "function", "main.c", 3, 5, 3, 9), sites: [range(6, 29, 6, 38)] }],
      total: 1,
    });
  });

  test("by name without a line: the definition, the same caller", async () => {
    const r = await ok(get(), "call_hierarchy", callArgs("incoming", "util.c", "manhattan"));
    expect(r.item).toEqual(at("manhattan", "function", "util.c", 5, 5, 5, 14));
    expect((r.calls as CallOut[]).map((c) => [c.name, c.file, c.sites])).toEqual([
      ["main", "main.c", [range(6, 29, 6, 38)]],
    ]);
  });

  test("outgoing: clangd 14 answers MethodNotFound → ServerLacksCapability", async () => {
    const e = await fails(get(), "call_hierarchy", callArgs("outgoing", "util.c", "manhattan"));
    expect(e.code).toBe("ServerLacksCapability");
    expect(e.details).toEqual({ server: "clangd", method: "callHierarchy/outgoingCalls" });
  });

  test("a nested field by dotted path", async () => {
    const r = await ok(get(), "hover", { file: "geometry.h", symbol: "point.x" });
    expect(r.text).toContain("field `x`");
    expect(r.range).toEqual(range(6, 7, 6, 8));
  });
});

const pyright = await requiredServer("pyright", findPyright);
describe.skipIf(!pyright)("pyright", () => {
  const get = bridgeOn("pyright", pyright, () => copyFixture("python"));

  test("incoming: the module-level callers, both calls on one line as two sites", async () => {
    const r = await ok(get(), "call_hierarchy", callArgs("incoming", "geometry.py", "make_circle"));
    expect(r).toEqual({
      item: at("make_circle", "function", "geometry.py", 14, 5, 14, 16),
      calls: [
        {
          ...at("(module) app.py", "module", "app.py", 1, 1, 1, 1),
          sites: [range(8, 11, 8, 22), range(8, 29, 8, 40)],
        },
        {
          ...at("(module) errors.py", "module", "errors.py", 1, 1, 1, 1),
          sites: [range(4, 18, 4, 29)],
        },
      ],
      total: 2,
    });
  });

  test("outgoing: the method in the workspace, then builtins.pyi's sum overloads", async () => {
    const r = await ok(get(), "call_hierarchy", callArgs("outgoing", "app.py", "total_area", 9));
    expect(r.item).toEqual(at("total_area", "function", "app.py", 4, 5, 4, 15));
    const calls = r.calls as CallOut[];
    expect(calls[0]).toEqual({
      ...at("area", "method", "geometry.py", 10, 9, 10, 13),
      sites: [range(5, 18, 5, 22)],
    });
    expect(calls.slice(1).map((c) => [c.name, c.file.endsWith("builtins.pyi"), c.sites])).toEqual(
      Array.from({ length: 3 }, () => ["sum", true, [range(5, 12, 5, 15)]]),
    );
    expect(calls.slice(1).every((c) => isAbsolute(c.file))).toBe(true);
  });

  test("Circle.area resolves the method; a bare `radius` lists its three candidates", async () => {
    const r = await ok(get(), "hover", { file: "geometry.py", symbol: "Circle.area" });
    expect(r.text).toBe("(method) def area(self: Self@Circle) -> float");
    const e = await fails(get(), "hover", { file: "geometry.py", symbol: "radius" });
    expect(e.code).toBe("AmbiguousSymbol");
    expect(e.details?.candidates).toEqual([
      { name: "radius", kind: "variable", container: "Circle.__init__", line: 7, column: 24 },
      { name: "radius", kind: "variable", container: "Circle", line: 8, column: 14 },
      { name: "radius", kind: "variable", container: "make_circle", line: 14, column: 17 },
    ]);
  });
});

/** typescript-language-server and typescript-native answer the ts fixture alike. */
function typescriptCalls(
  name: string,
  found: RealServer | null,
  moduleName: (f: string) => string,
) {
  const get = bridgeOn(name, found, () => copyFixture("ts"));

  test("incoming from the use on the emoji line: the two importing modules", async () => {
    const r = await ok(
      get(),
      "call_hierarchy",
      callArgs("incoming", "src/main.ts", "totalArea", 4),
    );
    expect(r).toEqual({
      item: at("totalArea", "function", "src/shape.ts", 14, 17, 14, 26),
      calls: ["src/errors.ts", "src/main.ts"].map((file) => ({
        ...at(moduleName(file), "module", file, 1, 1, 1, 1),
        sites: [range(4, 35, 4, 44)],
      })),
      total: 2,
    });
  });

  test("outgoing by name: the interface method, then Array.reduce in TypeScript's lib", async () => {
    const r = await ok(get(), "call_hierarchy", callArgs("outgoing", "src/shape.ts", "totalArea"));
    const calls = r.calls as CallOut[];
    expect(calls[0]).toEqual({
      ...at("area", "method", "src/shape.ts", 3, 3, 3, 7),
      sites: [range(15, 46, 15, 56)],
    });
    expect(calls.slice(1).map((c) => [c.name, c.file.endsWith("lib.es5.d.ts"), c.sites])).toEqual([
      ["reduce", true, [range(15, 10, 15, 23)]],
    ]);
    expect(r.total).toBe(2);
  });

  test("Square.area resolves the method; a bare `area` is ambiguous between both", async () => {
    const r = await ok(get(), "hover", { file: "src/shape.ts", symbol: "Square.area" });
    expect(r.text).toBe("(method) Square.area(): number");
    expect(r.range).toEqual(range(9, 3, 9, 7));
    const e = await fails(get(), "hover", { file: "src/shape.ts", symbol: "area" });
    expect(e.code).toBe("AmbiguousSymbol");
    expect(e.details?.candidates).toEqual([
      { name: "area", kind: "method", container: "Shape", line: 3, column: 3 },
      { name: "area", kind: "method", container: "Square", line: 9, column: 3 },
    ]);
  });
}

const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);
describe.skipIf(!tls)("typescript-language-server", () => {
  // tls names a module caller by its base name
  typescriptCalls("typescript-language-server", tls, (f) => f.slice(f.lastIndexOf("/") + 1));
});

const tsgo = await requiredServer("typescript-native", findTypescriptNative);
describe.skipIf(!tsgo)("typescript-native", () => {
  // tsgo names it by its absolute path, which the bridge gives as the result path
  typescriptCalls("typescript-native", tsgo, (f) => f);
});

const ra = await requiredServer("rust-analyzer", findRustAnalyzer);
describe.skipIf(!ra)("rust-analyzer", () => {
  const get = bridgeOn("rust-analyzer", ra, () => copyFixture("rust"));

  test("incoming from the use on the emoji line: main", async () => {
    const r = await ok(
      get(),
      "call_hierarchy",
      callArgs("incoming", "src/main.rs", "total_area", 6),
    );
    expect(r).toEqual({
      item: at("total_area", "function", "src/report.rs", 4, 8, 4, 18),
      calls: [
        { ...at("main", "function", "src/main.rs", 4, 4, 4, 8), sites: [range(6, 39, 6, 49)] },
      ],
      total: 1,
    });
  });

  test("outgoing: main calls total_area; total_area calls the impl method and std", async () => {
    const main = await ok(get(), "call_hierarchy", callArgs("outgoing", "src/main.rs", "main"));
    expect(main.calls).toEqual([
      {
        ...at("total_area", "function", "src/report.rs", 4, 8, 4, 18),
        sites: [range(6, 39, 6, 49)],
      },
    ]);
    const total = await ok(
      get(),
      "call_hierarchy",
      callArgs("outgoing", "src/report.rs", "total_area"),
    );
    const calls = total.calls as CallOut[];
    expect(calls[0]).toEqual({
      ...at("area", "function", "src/shapes.rs", 13, 8, 13, 12),
      sites: [range(5, 28, 5, 32)],
    });
    // std's iterator methods, under RUST_SRC_PATH (outside the workspace)
    expect(calls.slice(1).map((c) => [c.name, isAbsolute(c.file)])).toEqual([
      ["map", true],
      ["sum", true],
      ["iter", true],
    ]);
  });

  test("Area.area resolves the trait method; a bare `area` lists the trait's and the impl's", async () => {
    const r = await ok(get(), "hover", { file: "src/shapes.rs", symbol: "Area.area" });
    expect(r.text).toContain("pub fn area(&self) -> u32");
    expect(r.range).toEqual(range(3, 8, 3, 12));
    const e = await fails(get(), "hover", { file: "src/shapes.rs", symbol: "area" });
    expect(e.code).toBe("AmbiguousSymbol");
    expect(e.details?.candidates).toEqual([
      { name: "area", kind: "method", container: "Area", line: 3, column: 8 },
      { name: "area", kind: "method", container: "impl Area for Rect", line: 13, column: 8 },
    ]);
  });
});
