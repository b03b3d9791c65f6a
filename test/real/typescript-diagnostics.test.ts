/**
 * typescript-language-server's diagnostics are the server's finished check (SPEC §6, the
 * `tsserver` rule), on real code and from the first call:
 * - warm deltas on zod 4.6.7's own sources (the package ships them): a type error appended
 *   to src/v4/core/util.ts and reverted, five times, each `diagnostics {file, since}`
 *   exactly the one error added, then exactly it removed — nothing else moves;
 * - cold starts: fresh bridges (COLD_STARTS), two at a time, half asked after
 *   `session_status {start: true}`, half with diagnostics as the very first call, each
 *   answer errors.ts's two errors.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/bridge.ts";
import { ok, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import { copyFixture, findTypescriptLanguageServer } from "../support/real-servers.ts";
import { rounds } from "../support/rounds.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const tls = await findTypescriptLanguageServer();
requiredUnderCI("typescript-language-server", tls);

afterAll(removeTempDirs);

/** zod's sources (from the repository's own dependency) as a project with a tsconfig. */
function zodProject(): string {
  const dir = tempDir("theodolite-zod-");
  cpSync(join(REPO, "node_modules", "zod", "src"), join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        noEmit: true,
        skipLibCheck: true,
      },
      include: ["src/v4"],
    }),
  );
  return dir;
}

interface Delta {
  added: { code?: string; severity: string; line: number }[];
  removed: { code?: string; severity: string; line: number }[];
  snapshot: string;
  settled?: boolean;
}

const codes = (items: Delta["added"]) => items.map((d) => `${d.severity} ${d.code} @${d.line}`);

describe.skipIf(!tls)("typescript-language-server on zod's sources", () => {
  test("an error appended and reverted five times: each delta exactly that error", async () => {
    if (!tls) return;
    const root = zodProject();
    const file = "src/v4/core/util.ts";
    const abs = join(root, file);
    const original = await Bun.file(abs).text();
    const lines = original.split("\n").length;
    const bridge = await startRealBridge(root, tls.config);
    try {
      let last = (await ok(bridge, "diagnostics", { file })) as unknown as Delta;
      for (let round = 1; round <= 5; round++) {
        appendFileSync(abs, `export const theodoliteBroken${round}: number = "x";\n`);
        const broke = (await ok(bridge, "diagnostics", {
          file,
          since: last.snapshot,
        })) as unknown as Delta;
        expect({ round, added: codes(broke.added), removed: codes(broke.removed) }).toEqual({
          round,
          added: [`error 2322 @${lines}`],
          removed: [],
        });
        expect(broke.settled).toBeUndefined();
        writeFileSync(abs, original);
        const fixed = (await ok(bridge, "diagnostics", {
          file,
          since: broke.snapshot,
        })) as unknown as Delta;
        expect({ round, added: codes(fixed.added), removed: codes(fixed.removed) }).toEqual({
          round,
          added: [],
          removed: [`error 2322 @${lines}`],
        });
        last = fixed;
      }
    } finally {
      await bridge.close();
    }
  }, 300_000);
});

/** fresh bridges, two at a time (even) */
const COLD_STARTS = rounds(10, 40);

describe.skipIf(!tls)("typescript-language-server: cold starts", () => {
  test(`${COLD_STARTS} fresh bridges: the first diagnostics answer is complete every time`, async () => {
    if (!tls) return;
    const root = copyFixture("ts");
    const seen: string[] = [];
    const coldStart = async (i: number) => {
      const bridge = await startRealBridge(root, tls.config);
      try {
        // even: the session started first, as a client that checks status does; odd: not
        if (i % 2 === 0) await ok(bridge, "session_status", { start: true });
        const d = await ok(bridge, "diagnostics", { file: "src/errors.ts" });
        const items = d.diagnostics as { code?: string; line: number }[];
        seen[i] = `${i}: ${items.map((x) => `${x.code}@${x.line}`).join(" ")}`;
      } finally {
        await bridge.close();
      }
    };
    // two at a time: each start contends with another's, as on a loaded machine
    for (let i = 0; i < COLD_STARTS; i += 2) await Promise.all([coldStart(i), coldStart(i + 1)]);
    expect(seen).toEqual(Array.from({ length: COLD_STARTS }, (_, i) => `${i}: 2322@3 2345@4`));
  }, 600_000);
});
