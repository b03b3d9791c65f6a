/**
 * Seeded edits on disk for the new servers whose diagnostics are provably current (SPEC §5,
 * §6): the pull servers (vscode-css-language-server, ruff, ty, basedpyright) and the ones
 * whose publishes carry the document version (bash-language-server,
 * postgres-language-server). Each step rewrites one file behind the bridge's back with a
 * seeded number of lines that each add exactly one diagnostic; the next `diagnostics` for
 * the file must hold exactly that many more than the original, settled — never an answer
 * one change behind. The `publish` servers are left out: nothing proves their answers
 * current, and they say so (`settled: false`).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findLanguageServer } from "../support/language-servers.ts";
import { Prng } from "../support/prng.ts";
import { ok, realSuite, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";

interface SoakCase {
  server: string;
  file: string;
  /** the file's diagnostics as the fixture has it */
  base: number;
  /** the i-th line that adds one diagnostic */
  line: (i: number) => string;
}

const STEPS = 8;

const CASES: SoakCase[] = [
  {
    server: "vscode-css-language-server",
    file: "web/styles/site.css",
    base: 1,
    line: (i) => `.soak${i} { colr: red; }`,
  },
  { server: "ruff", file: "service/app.py", base: 2, line: (i) => `y${i} = undefined_${i}` },
  { server: "ty", file: "service/app.py", base: 2, line: (i) => `z${i}: int = "${i}"` },
  {
    server: "basedpyright",
    file: "service/app.py",
    base: 4,
    line: (i) => `z${i}: int = "${i}"`,
  },
  { server: "bash-language-server", file: "scripts/deploy.sh", base: 1, line: () => "echo $1" },
  {
    server: "postgres-language-server",
    file: "db/schema.sql",
    base: 1,
    line: () => "select from ;",
  },
];

for (const c of CASES) {
  const found = await findLanguageServer(c.server);
  requiredUnderCI(c.server, found);
  const suite = realSuite(c.server, found);
  describe.skipIf(!found)(`${c.server}: seeded edits of ${c.file}`, () => {
    test(`${STEPS} rewrites on disk, each answered current and settled`, async () => {
      const root = suite.fixture("polyglot");
      const path = join(root, c.file);
      const original = readFileSync(path, "utf8");
      const bridge = await startRealBridge(root, suite.config());
      const rng = new Prng(Prng.derive(33, c.server));
      const wrong: string[] = [];
      try {
        expect((await ok(bridge, "diagnostics", { file: c.file })).total).toBe(c.base);
        for (let step = 0; step < STEPS; step++) {
          const added = rng.int(0, 3);
          const lines = Array.from({ length: added }, (_, i) => c.line(step * 10 + i));
          writeFileSync(path, original + lines.map((l) => `${l}\n`).join(""));
          const r = await ok(bridge, "diagnostics", { file: c.file });
          if (r.total !== c.base + added || r.settled === false) {
            wrong.push(`step ${step}: +${added} lines, answered ${r.total} (settled ${r.settled})`);
          }
        }
        expect(wrong).toEqual([]);
      } finally {
        await bridge.close();
      }
    });
  });
}
