/**
 * No answer points into a file that no longer exists (SPEC §4.5 `vanished`), on clangd:
 * its background index keeps a moved directory's old paths until it re-indexes. After
 * `mv util support` (the compile database regenerated for the new path, so the session
 * restarts) and after a move the database does not follow (a deleted source is a change
 * nothing vouches for, SPEC §5.3: the session restarts too, and its index starts afresh),
 * definition, references and workspace_symbols name only files that exist; nothing is
 * left for `vanished` to drop.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ok, requiredServer, startRealBridge } from "../support/real-bridge.ts";
import { findClangd, materializeCFixture } from "../support/real-servers.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

const clangd = await requiredServer("clangd", findClangd);

afterAll(removeTempDirs);

/** The C fixture with util.c in util/ (including ../geometry.h), its database to match. */
function layout(): string {
  const root = materializeCFixture();
  mkdirSync(join(root, "util"));
  const util = readFileSync(join(root, "util.c"), "utf8").replace(
    '#include "geometry.h"',
    '#include "../geometry.h"',
  );
  writeFileSync(join(root, "util", "util.c"), util);
  rmSync(join(root, "util.c"));
  writeDatabase(root, "util");
  return root;
}

function writeDatabase(root: string, utilDir: string): void {
  const db = join(root, "compile_commands.json");
  const entries = JSON.parse(readFileSync(db, "utf8")) as { file: string; arguments: string[] }[];
  for (const e of entries) {
    if (/\/util\.c$/.test(e.file)) {
      e.file = join(root, utilDir, "util.c");
      e.arguments = e.arguments.map((a) => (/util\.c$/.test(a) ? `${utilDir}/util.c` : a));
    }
  }
  writeFileSync(db, JSON.stringify(entries, null, 2));
}

type Located = { file: string };

/** Every file a result names (locations, symbols), and its `vanished` count. */
function named(r: Record<string, unknown>): { files: string[]; vanished: number } {
  const items = [
    ...((r.locations as Located[] | undefined) ?? []),
    ...((r.symbols as Located[] | undefined) ?? []),
  ];
  return {
    files: [...new Set(items.map((i) => i.file))].sort(),
    vanished: Number(r.vanished ?? 0),
  };
}

describe.skipIf(!clangd)("clangd: a moved directory", () => {
  const calls = [
    { tool: "definition", args: { file: "main.c", line: 6, symbol: "manhattan" } },
    { tool: "references", args: { file: "main.c", line: 6, symbol: "manhattan" } },
    { tool: "workspace_symbols", args: { query: "manhattan" } },
  ];

  for (const followed of [true, false]) {
    const how = followed ? "the database follows (restart)" : "the database does not follow";
    test(`mv util support, ${how}: only existing files named`, async () => {
      if (!clangd) return;
      const root = layout();
      await using bridge = await startRealBridge(root, clangd.config);
      await ok(bridge, "session_status", { start: true });
      // the index knows util/util.c: the definition is there
      const before = named(await ok(bridge, "definition", calls[0]?.args));
      expect(before.files).toContain("util/util.c");
      renameSync(join(root, "util"), join(root, "support"));
      if (followed) writeDatabase(root, "support");
      let dropped = 0;
      for (const c of calls) {
        const r = named(await ok(bridge, c.tool, c.args));
        for (const f of r.files)
          expect({ call: c.tool, file: f, exists: true }).toEqual({
            call: c.tool,
            file: f,
            exists: existsSync(join(root, f)),
          });
        expect(r.files).not.toContain("util/util.c");
        dropped += r.vanished;
      }
      // either way the session restarted, so no stale path was left to drop
      expect(dropped).toBe(0);
      const status = await ok(bridge, "session_status", {});
      const s = (status.sessions as { restarts: { count: number } }[])[0];
      expect(s?.restarts.count).toBeGreaterThan(0);
    }, 300_000);
  }
});
