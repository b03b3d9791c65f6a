/**
 * What the watcher never watches and what it follows at the package level only (SPEC
 * §5.2): dependency containers (node_modules, a @scope in it, site-packages) are watched,
 * a package added, replaced or removed is a change of its directory, what changes inside a
 * package is not seen.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { inDependencies, scopeByName } from "../../../src/workspace/watch-scope.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { closeWatchers, watch, write } from "../../support/watching.ts";

afterAll(removeTempDirs);
afterEach(closeWatchers);

const sorted = (pairs: [string, string][]) => [...pairs].sort();

describe("scopeByName", () => {
  test("VCS internals excluded; containers, and the packages in them", () => {
    expect(scopeByName("/r/.git")).toBe("excluded");
    expect(scopeByName("/r/src")).toBe("watch");
    expect(scopeByName("/r/node_modules")).toBe("container");
    expect(scopeByName("/r/node_modules/pkg")).toBe("package");
    expect(scopeByName("/r/node_modules/@scope")).toBe("container");
    expect(scopeByName("/r/node_modules/@scope/pkg")).toBe("package");
    expect(scopeByName("/r/.venv/lib/python3.11/site-packages")).toBe("container");
    expect(scopeByName("/r/.venv/lib/python3.11/site-packages/requests")).toBe("package");
    expect(scopeByName("/r/lib/@notscoped")).toBe("watch");
  });

  test("inDependencies: files in a container or a package", () => {
    expect(inDependencies("/r", "/r/node_modules/pkg/index.d.ts")).toBe(true);
    expect(inDependencies("/r", "/r/.venv/lib/python3.11/site-packages/six.py")).toBe(true);
    expect(inDependencies("/r", "/r/src/node_modules.ts")).toBe(false);
    expect(inDependencies("/r", "/r/app.py")).toBe(false);
  });
});

describe("dependency trees, at the package level", () => {
  test("node_modules: a package added, replaced, removed; inside one, nothing", () => {
    const root = tempDir("theodolite-tree-", {
      "src/a.ts": "a",
      "node_modules/old/index.d.ts": "o",
      "node_modules/@scope/one/index.d.ts": "1",
    });
    const { poll, watcher } = watch(root);
    expect(watcher.status().packages).toEqual({ containers: 2, followed: 2 });
    write(root, "node_modules/fresh/index.d.ts", "f");
    write(root, "node_modules/@scope/two/index.d.ts", "2");
    expect(sorted(poll())).toEqual([
      ["created", "node_modules/@scope/two"],
      ["created", "node_modules/fresh"],
    ]);
    // npm's way: the old version moved aside, the new one written in its place
    renameSync(join(root, "node_modules/old"), join(root, "node_modules/.old-aside"));
    write(root, "node_modules/old/index.d.ts", "o2");
    rmSync(join(root, "node_modules/.old-aside"), { recursive: true });
    expect(poll()).toEqual([["changed", "node_modules/old"]]);
    write(root, "node_modules/old/index.d.ts", "in place");
    expect(poll()).toEqual([]);
    rmSync(join(root, "node_modules/@scope/one"), { recursive: true });
    expect(poll()).toEqual([["deleted", "node_modules/@scope/one"]]);
    expect(watcher.status().packages).toEqual({ containers: 2, followed: 3 });
  });

  test("a node_modules made after the start, and a virtual environment's site-packages", () => {
    const sp = ".venv/lib/python3.11/site-packages";
    const root = tempDir("theodolite-tree-", {
      "app.py": "a",
      [`${sp}/six.py`]: "s",
      [`${sp}/req/__init__.py`]: "r",
    });
    const { poll, watcher } = watch(root);
    write(root, `${sp}/newmod.py`, "n");
    mkdirSync(join(root, sp, "newpkg"));
    expect(poll()).toEqual([
      ["created", `${sp}/newmod.py`],
      ["created", `${sp}/newpkg`],
    ]);
    write(root, "node_modules/pkg/package.json", "{}");
    expect(poll()).toEqual([["created", "node_modules/pkg"]]);
    rmSync(join(root, "node_modules"), { recursive: true });
    expect(poll()).toEqual([["deleted", "node_modules/pkg"]]);
    expect(watcher.status().packages).toEqual({ containers: 1, followed: 2 });
  });
});
