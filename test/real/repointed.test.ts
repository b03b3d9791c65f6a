/**
 * An outside dependency whose path comes to lead elsewhere without an event where it led
 * (SPEC §5.3, src/workspace/outside-lookups.ts), on real servers through the compiled
 * bridge: a link on the way pointed elsewhere, a directory on the way renamed and made
 * again. The long-lived bridge answers as a bridge started after the change does, and
 * `rename_apply` renames the site the new target brings.
 */
import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { findGopls } from "../support/built-servers.ts";
import { answer, GATED, type Probe } from "../support/coherence.ts";
import { startRealBridge } from "../support/real-bridge.ts";
import {
  findPyright,
  findTypescriptLanguageServer,
  type RealServer,
} from "../support/real-servers.ts";
import { base, type Case, compareCases, diag, write } from "../support/unproven-cases.ts";

const FOUND: Record<string, RealServer | null> = {
  pyright: await findPyright(),
  "typescript-language-server": await findTypescriptLanguageServer(),
  gopls: await findGopls(),
};

/** `link` → `target` beside it, made once (a copy keeps the link it was given). */
const linked = (link: string, target: string) => (dir: string) => {
  try {
    lstatSync(join(dir, link));
  } catch {
    symlinkSync(target, join(dir, link));
  }
};

/** What `ln -sfn target link` does: a new link renamed over the old one. */
function repoint(dir: string, link: string, target: string): void {
  symlinkSync(target, join(dir, `${link}.new`));
  renameSync(join(dir, `${link}.new`), join(dir, link));
}

const goHover: Probe = { tool: "hover", args: { file: "main.go", line: 5, symbol: "W" } };

const CASES: Record<string, Case> = {
  "pyright: an extraPaths directory reached through a link, pointed elsewhere": {
    server: "pyright",
    files: {
      "lib-a/mod.py": "def g() -> int:\n    return 1\n",
      "lib-b/mod.py": 'def g() -> str:\n    return "b"\n',
      "proj/pyrightconfig.json": '{ "extraPaths": ["../lib"] }\n',
      "proj/main.py": "from mod import g\n\nn: int = g()\n",
    },
    prepare: linked("lib", "lib-a"),
    warm: [diag("main.py")],
    change: (dir) => repoint(dir, "lib", "lib-b"),
    probes: [diag("main.py")],
  },
  "typescript-language-server: a paths target's parent renamed and made again": {
    server: "typescript-language-server",
    files: {
      "vendor/shared/util.ts": "export const v: number = 1;\n",
      "proj/tsconfig.json":
        '{ "compilerOptions": { "strict": true, "baseUrl": ".", "paths": { "@shared/*": ["../vendor/shared/*"] } }, "include": ["src"] }\n',
      "proj/src/a.ts": 'import { v as w } from "@shared/util";\nexport const v = w;\n',
    },
    warm: [{ tool: "hover", args: { file: "src/a.ts", line: 2, symbol: "v" } }],
    change: (dir) => {
      renameSync(join(dir, "vendor"), join(dir, "vendor.old"));
      mkdirSync(join(dir, "vendor/shared"), { recursive: true });
      write(dir, "vendor/shared/util.ts", 'export const v: string = "one";\n');
    },
    probes: [{ tool: "hover", args: { file: "src/a.ts", line: 2, symbol: "v" } }],
  },
  "pyright: a link in the root to a link outside it, that one pointed elsewhere": {
    server: "pyright",
    files: {
      "lib-a/mod.py": "def g() -> int:\n    return 1\n",
      "lib-b/mod.py": 'def g() -> str:\n    return "b"\n',
      "proj/pyrightconfig.json": '{ "extraPaths": ["libs"] }\n',
      "proj/main.py": "from mod import g\n\nn: int = g()\n",
    },
    prepare: (dir) => {
      linked("lib", "lib-a")(dir);
      linked("proj/libs", "../lib")(dir);
    },
    warm: [diag("main.py")],
    change: (dir) => repoint(dir, "lib", "lib-b"),
    probes: [diag("main.py")],
  },
  "typescript-language-server: a package in node_modules that is a link, pointed elsewhere": {
    server: "typescript-language-server",
    files: {
      "pkg-a/package.json": '{ "name": "shared", "version": "1.0.0", "types": "index.d.ts" }\n',
      "pkg-a/index.d.ts": "export declare const LIMIT: number;\n",
      "pkg-b/package.json": '{ "name": "shared", "version": "2.0.0", "types": "index.d.ts" }\n',
      "pkg-b/index.d.ts": "export declare const LIMIT: string;\n",
      "proj/node_modules/.keep": "",
      "proj/tsconfig.json":
        '{ "compilerOptions": { "strict": true, "moduleResolution": "node" }, "include": ["src"] }\n',
      "proj/src/main.ts": 'import { LIMIT } from "shared";\nexport const n: number = LIMIT;\n',
    },
    prepare: linked("proj/node_modules/shared", "../../pkg-a"),
    warm: [diag("src/main.ts")],
    change: (dir) => repoint(dir, "proj/node_modules/shared", "../../pkg-b"),
    probes: [diag("src/main.ts")],
  },
  "gopls: a replace directory reached through a link, pointed elsewhere": {
    server: "gopls",
    files: {
      "lib-a/go.mod": "module example.com/dep\n\ngo 1.21\n",
      "lib-a/dep.go": "package dep\n\nvar V int = 1\n",
      "lib-b/go.mod": "module example.com/dep\n\ngo 1.21\n",
      "lib-b/dep.go": "package dep\n\nvar V int64 = 2\n",
      "proj/go.mod":
        "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../lib\n",
      "proj/main.go":
        'package main\n\nimport "example.com/dep"\n\nvar W = dep.V\n\nfunc main() { _ = W }\n',
    },
    prepare: linked("lib", "lib-a"),
    warm: [goHover],
    change: (dir) => repoint(dir, "lib", "lib-b"),
    probes: [goHover],
  },
};

compareCases(
  "an outside path leading elsewhere: the long-lived answer is a fresh bridge's",
  FOUND,
  CASES,
);

describe("pyright: rename_apply after an outside link was pointed elsewhere", () => {
  const found = FOUND.pyright ?? null;
  test.skipIf(!found)("the call the new target brings into the program is renamed", async () => {
    if (!found) return;
    const dir = base({
      "lib-a/mod.py": "def g() -> int:\n    return 1\n",
      "lib-b/mod.py": "from k import K\n\n\ndef g() -> K:\n    return K()\n",
      "proj/pyrightconfig.json": '{ "extraPaths": ["../lib"] }\n',
      "proj/k.py": "class K:\n    def run(self) -> int:\n        return 1\n",
      "proj/main.py": "from mod import g\n\ng().run()\n",
    });
    linked("lib", "lib-a")(dir);
    const root = join(dir, "proj");
    const bridge = await startRealBridge(root, found.config, GATED);
    try {
      await answer(bridge, diag("main.py"), root);
      repoint(dir, "lib", "lib-b");
      const r = await bridge.call("rename_apply", {
        file: "k.py",
        line: 2,
        symbol: "run",
        new_name: "go",
      });
      expect(r.isError ? r.structured : r.structured.applied).toBe(true);
      expect(readFileSync(join(root, "main.py"), "utf8")).toContain("g().go()");
    } finally {
      await bridge.close();
    }
  });
});
