/**
 * Answers about a file the server does not see as part of the whole program say so (SPEC
 * §4.3 `outside_program`), through the compiled bridge on the real servers:
 * typescript-language-server without a tsconfig.json answers references from src/index.ts
 * without a caller in another file, and the answer is marked; with a tsconfig.json it finds
 * the caller and carries no mark; clangd marks a C file its compile database does not name,
 * pyright a file its pyrightconfig.json excludes. Workspace-wide answers name the files.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GATED } from "../support/coherence.ts";
import { ok, realSuite, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  findClangd,
  findPyright,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";

const [tls, clangd, pyright] = await Promise.all([
  findTypescriptLanguageServer(),
  findClangd(),
  findPyright(),
]);

for (const [name, found] of [
  ["typescript-language-server", tls],
  ["clangd", clangd],
  ["pyright", pyright],
] as const) {
  requiredUnderCI(name, found, (s) => expect(s.config.program).not.toBeNull());
}

const suite = realSuite("typescript-language-server", tls);

/** Files of a workspace written into `root`. */
function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

const startsWith = (prefix: string) =>
  expect.stringMatching(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
const outside = (r: Record<string, unknown>) =>
  r.outside_program as { file: string; reason: string }[] | undefined;
const files = (r: Record<string, unknown>) =>
  (r.locations as { file: string }[]).map((l) => l.file).sort();

/** demo-ts (src/greet.ts, src/index.ts) and src/caller.ts, which calls greet too. */
function demoTs(withTsconfig: boolean): string {
  const root = suite.fixture("demo-ts");
  if (!withTsconfig) rmSync(join(root, "tsconfig.json"));
  write(root, {
    "src/caller.ts": 'import { greet } from "./greet";\nexport const hi = greet("Bob");\n',
  });
  return root;
}

describe.skipIf(!tls)("typescript-language-server", () => {
  test("references from src/index.ts: without tsconfig.json caller.ts is missed and the answer says so; with one, neither", async () => {
    // both bridges at once: each waits on its server's start
    const config = suite.config();
    const noneRoot = demoTs(false);
    const [none, configured] = await Promise.all([
      startRealBridge(noneRoot, config, GATED),
      startRealBridge(demoTs(true), config),
    ]);
    const at = { file: "src/index.ts", line: 3, symbol: "greet" };
    const [missed, found] = await Promise.all([
      ok(none, "references", at),
      ok(configured, "references", at),
    ]);
    expect(files(missed)).toEqual(["src/greet.ts", "src/index.ts", "src/index.ts", "src/index.ts"]);
    // the call's file, and the workspace's other files outside any program: uses there are
    // the ones the answer may miss, caller.ts among them
    const noProject = {
      reason: startsWith(
        "in no project (no tsconfig.json or jsconfig.json in its directory or above): the server sees only this file and what it imports",
      ),
    };
    expect(outside(missed)).toEqual(
      ["src/caller.ts", "src/greet.ts", "src/index.ts"].map((file) => ({ file, ...noProject })),
    );
    expect(files(found)).toContain("src/caller.ts");
    expect(found.outside_program).toBeUndefined();
    // callers alike
    const incoming = { ...at, direction: "incoming" };
    const [partial, whole] = await Promise.all([
      ok(none, "call_hierarchy", incoming),
      ok(configured, "call_hierarchy", incoming),
    ]);
    const callers = (r: Record<string, unknown>) =>
      [...new Set((r.calls as { file: string }[]).map((c) => c.file))].sort();
    expect(callers(partial)).toEqual(["src/index.ts"]);
    expect(outside(partial)?.map((o) => o.file)).toEqual([
      "src/caller.ts",
      "src/greet.ts",
      "src/index.ts",
    ]);
    expect(callers(whole)).toEqual(["src/caller.ts", "src/index.ts"]);
    expect(whole.outside_program).toBeUndefined();
    // workspace-wide: the files no project holds are named
    const symbols = await ok(none, "workspace_symbols", { query: "greet" });
    expect(outside(symbols)?.map((o) => o.file)).toEqual([
      "src/caller.ts",
      "src/greet.ts",
      "src/index.ts",
    ]);
    const all = await ok(configured, "workspace_symbols", { query: "greet" });
    expect(all.outside_program).toBeUndefined();
    // diagnostics: of the file, and of the workspace
    const own = await ok(none, "diagnostics", { file: "src/index.ts" });
    expect(outside(own)?.map((o) => o.file)).toEqual(["src/index.ts"]);
    const everything = await ok(none, "diagnostics", {});
    expect(outside(everything)?.map((o) => o.file)).toEqual([
      "src/caller.ts",
      "src/greet.ts",
      "src/index.ts",
    ]);
    const since = await ok(none, "diagnostics", { since: everything.snapshot });
    expect(outside(since)).toEqual(outside(everything));
    // a rename from it would miss caller.ts: refused, nothing written (SPEC §7.3)
    const before = readFileSync(join(noneRoot, "src/caller.ts"), "utf8");
    const refused = await none.call("rename_apply", { ...at, new_name: "welcome" });
    expect([
      refused.structured.code,
      (refused.structured.details as { reason: string }).reason,
    ]).toEqual(["EditIncomplete", "outside_program"]);
    expect(readFileSync(join(noneRoot, "src/caller.ts"), "utf8")).toBe(before);
    expect(readFileSync(join(noneRoot, "src/greet.ts"), "utf8")).toContain("greet");
  }, 60_000);
});

describe.skipIf(!clangd)("clangd", () => {
  test("a C file the compile database does not name is marked; one it names is not", async () => {
    const root = materializeCFixture();
    try {
      write(root, { "orphan.c": '#include "geometry.h"\nint orphan(void) { return 1; }\n' });
      const bridge = await startRealBridge(root, (clangd as RealServer).config);
      const own = await ok(bridge, "document_symbols", { file: "orphan.c" });
      expect(outside(own)).toEqual([
        {
          file: "orphan.c",
          reason: startsWith("not in compile_commands.json: the server guesses its compile flags"),
        },
      ]);
      const named = await ok(bridge, "document_symbols", { file: "main.c" });
      expect(named.outside_program).toBeUndefined();
      const header = await ok(bridge, "document_symbols", { file: "geometry.h" });
      expect(header.outside_program).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!pyright)("pyright", () => {
  test("a file pyrightconfig.json excludes is marked; one it includes is not", async () => {
    const root = suite.fixture("python");
    write(root, {
      "pyrightconfig.json": '{"include": ["."], "exclude": ["scripts"]}',
      "scripts/tool.py": "def tool_helper() -> int:\n    return 1\n",
      "scripts/run.py": "from tool import tool_helper\n\nprint(tool_helper())\n",
    });
    const bridge = await startRealBridge(root, (pyright as RealServer).config);
    const at = { file: "scripts/tool.py", line: 1, symbol: "tool_helper" };
    const refs = await ok(bridge, "references", at);
    // scripts/run.py, left out as well, is not searched, and the answer names it
    expect(files(refs)).toEqual(["scripts/tool.py"]);
    const excluded = { reason: startsWith('excluded by pyrightconfig.json\'s exclude "scripts"') };
    expect(outside(refs)).toEqual(
      ["scripts/run.py", "scripts/tool.py"].map((file) => ({ file, ...excluded })),
    );
    const app = await ok(bridge, "document_symbols", { file: "app.py" });
    expect(app.outside_program).toBeUndefined();
  }, 60_000);
});
