/** SPEC §3 (`bridge.log`): the optional log file, rotated by size. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { RotatingLogFile } from "../../src/log-file.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterAll(removeTempDirs);
function temp(): string {
  const d = tempDir("theodolite-log-");
  return d;
}

describe("rotating log file (SPEC §3, bridge.log)", () => {
  test("rotates under a tiny max_bytes and keeps max_files old files", () => {
    const dir = temp();
    const path = join(dir, "bridge.log");
    const f = new RotatingLogFile(path, 64, 2);
    for (let i = 0; i < 20; i++) f.write(`line ${String(i).padStart(2, "0")} ${"x".repeat(20)}\n`);
    expect(existsSync(path)).toBe(true);
    expect(existsSync(`${path}.1`)).toBe(true);
    expect(existsSync(`${path}.2`)).toBe(true);
    expect(existsSync(`${path}.3`)).toBe(false);
    for (const p of [path, `${path}.1`, `${path}.2`])
      expect(statSync(p).size).toBeLessThanOrEqual(64);
    // newest lines in the live file, older ones rotated out in order
    expect(readFileSync(path, "utf8")).toContain("line 19");
    expect(readFileSync(`${path}.1`, "utf8")).toContain("line 17");
    expect(readFileSync(`${path}.2`, "utf8")).toContain("line 15");
  });
});
