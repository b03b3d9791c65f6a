/**
 * rename_apply never writes a partial rename (SPEC §7.3), on the real servers: a long-lived
 * gated bridge answers a first rename_preview, then a file that calls the symbol appears
 * (or an existing one starts calling it) behind its back, and rename_apply must rename
 * every call site — at least every edit a bridge started afresh on a copy previews, and no
 * whole-word occurrence of the old name left in any source file. clangd: a new file with
 * the compilation database updated (the session restarts, `restart_on`), a new file it
 * does not list, and a listed file it indexed before the call was added;
 * typescript-language-server and pyright: a new file created right before the call, and
 * one outside the project's files (tsserver then renames it once it is open; pyright keeps
 * it out of its rename while its definition resolves there, so the rename is refused).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { occurrences } from "../../src/apply/complete.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import type { BridgeHandle } from "../support/bridge.ts";
import { copyWorkspace, GATED } from "../support/coherence.ts";
import { ok, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findTypescriptLanguageServer,
  materializeCFixture,
} from "../support/real-servers.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterAll(removeTempDirs);

interface Change {
  file: string;
  edits: unknown[];
}

/** Source files (by extension) below `root` holding `name` as a whole word. */
function callSitesLeft(root: string, exts: string[], name: string): string[] {
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => exts.some((e) => f.endsWith(e)) && !f.includes("node_modules"))
    .filter((f) => occurrences(readFileSync(join(root, f), "utf8"), name).length > 0)
    .sort();
}

/** What a bridge started afresh on a copy of `root` previews for the rename. */
async function freshPreview(root: string, server: ServerConfig, args: Record<string, unknown>) {
  const copy = copyWorkspace(root);
  const fresh = await startRealBridge(copy, server);
  try {
    return (await ok(fresh, "rename_preview", args)).changes as Change[];
  } finally {
    await fresh.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

interface Case {
  name: string;
  /** the change made behind the bridge's back after its first answer */
  change(root: string): void;
  /** the file that must be renamed too */
  expect: string;
}

/**
 * One long-lived bridge per case: preview, change, compare with a fresh preview, apply.
 * The applied edits hold every fresh one, the new call site's file among them, and no
 * source file mentions the old name afterwards.
 */
async function renameEverywhere(
  root: string,
  server: ServerConfig,
  c: Case,
  args: { file: string; symbol: string; new_name: string },
  exts: string[],
  old: string,
): Promise<void> {
  const bridge: BridgeHandle = await startRealBridge(root, server, GATED);
  try {
    await ok(bridge, "rename_preview", args);
    c.change(root);
    // the copy is taken now, before the apply writes; the fresh bridge starts on it and
    // previews while the long-lived bridge applies: neither waits for the other
    const previewing = freshPreview(root, server, args);
    previewing.catch(() => {}); // a failure surfaces where it is awaited
    const r = await ok(bridge, "rename_apply", args).finally(() => previewing.catch(() => {}));
    const fresh = await previewing;
    expect(r.applied).toBe(true);
    const applied = r.changes as Change[];
    for (const f of fresh) expect(applied).toContainEqual(f);
    expect(applied.map((a) => a.file)).toContain(c.expect);
    expect(callSitesLeft(root, exts, old)).toEqual([]);
  } finally {
    await bridge.close();
  }
}

const clangd = await findClangd();
requiredUnderCI("clangd", clangd);
describe.skipIf(!clangd)("clangd", () => {
  const CALL = '#include "geometry.h"\nint walk(struct point p) { return manhattan(p, p); }\n';
  const ARGS = { file: "util.c", symbol: "manhattan", new_name: "taxicab" };
  const EXTS = [".c", ".h"];
  /** The compilation database with one more entry, as a build system regenerates it. */
  const addEntry = (root: string, file: string) => {
    const db = join(root, "compile_commands.json");
    const entries = JSON.parse(readFileSync(db, "utf8")) as Record<string, unknown>[];
    const first = entries[0] as { arguments: string[] };
    const args = first.arguments.map((a) => (a === "util.c" ? file : a));
    entries.push({ directory: root, file: join(root, file), arguments: args });
    writeFileSync(db, JSON.stringify(entries, null, 2));
  };
  const cases: (Case & { setup?: (root: string) => void })[] = [
    {
      name: "a new file and the compilation database updated (restart_on)",
      change: (root) => {
        writeFileSync(join(root, "walk.c"), CALL);
        addEntry(root, "walk.c");
      },
      expect: "walk.c",
    },
    {
      name: "a new file the compilation database does not list",
      change: (root) => writeFileSync(join(root, "walk.c"), CALL),
      expect: "walk.c",
    },
    {
      name: "a listed file, indexed without a call, that now calls it",
      setup: (root) => {
        writeFileSync(
          join(root, "walk.c"),
          '#include "geometry.h"\nint walk(void) { return 0; }\n',
        );
        addEntry(root, "walk.c");
      },
      change: (root) => writeFileSync(join(root, "walk.c"), CALL),
      expect: "walk.c",
    },
  ];
  for (const c of cases) {
    test(`${c.name}: every call site renamed`, async () => {
      if (!clangd) return;
      const root = materializeCFixture(undefined, "c");
      c.setup?.(root);
      await renameEverywhere(root, clangd.config, c, ARGS, EXTS, "manhattan");
    }, 180_000);
  }
});

const tls = await findTypescriptLanguageServer();
requiredUnderCI("typescript-language-server", tls);
describe.skipIf(!tls)("typescript-language-server", () => {
  const IMPORT = (from: string) =>
    `import { totalArea } from "${from}";\n\nexport const walked = totalArea([]);\n`;
  const cases: Case[] = [
    {
      name: "a new file created right before the call",
      change: (r) => writeFileSync(join(r, "src/walk.ts"), IMPORT("./shape")),
      expect: "src/walk.ts",
    },
    {
      name: "a new file outside tsconfig's include (renamed once the bridge opened it)",
      change: (r) => {
        mkdirSync(join(r, "scripts"));
        writeFileSync(join(r, "scripts/walk.ts"), IMPORT("../src/shape"));
      },
      expect: "scripts/walk.ts",
    },
  ];
  for (const c of cases) {
    test(`${c.name}: every call site renamed`, async () => {
      if (!tls) return;
      const root = copyFixture("ts");
      const args = { file: "src/shape.ts", symbol: "totalArea", new_name: "sumArea" };
      await renameEverywhere(root, tls.config, c, args, [".ts"], "totalArea");
    }, 180_000);
  }
});

const pyright = await findPyright();
requiredUnderCI("pyright", pyright);
describe.skipIf(!pyright)("pyright", () => {
  test("a new file created right before the call: every call site renamed", async () => {
    if (!pyright) return;
    const root = copyFixture("python");
    const c: Case = {
      name: "new file",
      change: (r) =>
        writeFileSync(
          join(r, "walk.py"),
          "from geometry import make_circle\n\nw = make_circle(3.0)\n",
        ),
      expect: "walk.py",
    };
    const args = { file: "geometry.py", symbol: "make_circle", new_name: "new_circle" };
    await renameEverywhere(root, pyright.config, c, args, [".py"], "make_circle");
  }, 180_000);

  test("a new file its configuration excludes: refused naming it, nothing written", async () => {
    if (!pyright) return;
    const root = copyFixture("python");
    const config = { include: ["."], exclude: ["scripts"], pythonVersion: "3.11" };
    writeFileSync(join(root, "pyrightconfig.json"), JSON.stringify(config));
    mkdirSync(join(root, "scripts"));
    const bridge = await startRealBridge(root, pyright.config, GATED);
    try {
      const args = { file: "geometry.py", symbol: "make_circle", new_name: "new_circle" };
      await ok(bridge, "rename_preview", args);
      const walk = "import geometry\nfrom geometry import make_circle\n\nw = make_circle(3.0)\n";
      writeFileSync(join(root, "scripts/walk.py"), walk);
      const before = callSitesLeft(root, [".py"], "make_circle");
      const r = await bridge.call("rename_apply", args);
      expect(r.structured.code).toBe("EditIncomplete");
      expect(r.structured.details).toEqual({
        reason: "left_out",
        files: ["scripts/walk.py"],
        count: 1,
        occurrences: [
          { file: "scripts/walk.py", line: 2, column: 22 },
          { file: "scripts/walk.py", line: 4, column: 5 },
        ],
      });
      // nothing written: every file still calls it
      expect(callSitesLeft(root, [".py"], "make_circle")).toEqual(before);
      expect(before).toContain("scripts/walk.py");
    } finally {
      await bridge.close();
    }
  }, 180_000);
});
