/**
 * typescript-language-server with more files than max_open_documents (the default, 64):
 * `diagnostics` on 125 files in turn, twice, with files rewritten on disk in between, never
 * strands a call (SPEC §5.3, §6). tls publishes nothing when a file's diagnostics stay
 * what they were (an empty set stays empty), so a wait for "a publish after the didChange"
 * would never end (docs/LANGUAGE-SERVERS.md#typescript-language-server-skips-unchanged-publishes):
 * its diagnostics are always taken from an opening (a document closed and opened afresh),
 * which it always answers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requiredServer, startRealBridge } from "../support/real-bridge.ts";
import { findTypescriptLanguageServer, fixturePath } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";

const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);
const FILES = 125;
afterAll(removeTempDirs);

/** File i: every fifth has one type error (TS2322), the others none. */
function source(i: number, comment = ""): string {
  return (
    `${comment}import { totalArea } from "./shape";\n` +
    `export const v${i}: number = totalArea([]);\n` +
    (i % 5 === 0 ? `export const bad${i}: string = ${i};\n` : "")
  );
}

describe.skipIf(!tls)("typescript-language-server: 125 files, max_open_documents 64", () => {
  test("diagnostics on every file in turn, twice, files rewritten between: no RequestTimeout", async () => {
    if (!tls) return;
    const root = tempDir("theodolite-ts125-");
    cpSync(fixturePath("ts"), root, { recursive: true });
    for (let i = 0; i < FILES; i++) writeFileSync(join(root, "src", `m${i}.ts`), source(i));
    // the default bridge section: max_open_documents 64, request_timeout_ms 30000
    await using bridge = await startRealBridge(root, tls.config, { bridge: {} });
    const errorsOf = async (i: number): Promise<number> => {
      const r = await bridge.call("diagnostics", { file: `src/m${i}.ts` });
      if (r.isError) throw new Error(`src/m${i}.ts: ${r.text}`);
      return r.structured.total as number;
    };
    /** tls may first publish the syntactic set only (SPEC §6): the file's answer settles. */
    const settled = (i: number) =>
      waitForValue(
        async () => {
          const n = await errorsOf(i);
          return n === (i % 5 === 0 ? 1 : 0) ? n : undefined;
        },
        30_000,
        { intervalMs: 50, what: `the diagnostics of src/m${i}.ts` },
      );
    for (let pass = 1; pass <= 2; pass++) {
      for (let i = 0; i < FILES; i++) {
        const n = await errorsOf(i); // never a RequestTimeout: it would throw
        if (i % 5 !== 0) expect({ file: i, errors: n }).toEqual({ file: i, errors: 0 });
        else await settled(i);
      }
      // every third file rewritten with the same diagnostics (a comment added): the case
      // where tls publishes nothing for a didChange
      for (let i = 0; i < FILES; i += 3) {
        writeFileSync(join(root, "src", `m${i}.ts`), source(i, `// pass ${pass}\n`));
      }
    }
    const status = await bridge.call("session_status");
    const entry = (status.structured.sessions as { open_documents: number }[])[0];
    expect(entry?.open_documents).toBe(64);
  }, 900_000);
});
