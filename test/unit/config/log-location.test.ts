/** SPEC §3 (`bridge.log.file`): where the log file may lie. */
import { afterAll, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkLogLocation } from "../../../src/config/log-location.ts";
import type { Config } from "../../../src/config/types.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

test("the log directory must be inside a workspace or the temp directory", () => {
  const ws = tempDir("theodolite-log-");
  const config = (file: string) =>
    ({
      bridge: { log: { level: "info", file, max_bytes: 1000, max_files: 1 } },
      workspaces: [{ name: "w", root: ws, servers: [], file_dirs: {}, incidental: [] }],
      servers: [],
      source: "test",
    }) as unknown as Config;
  expect(() => checkLogLocation(config(join(ws, "logs", "b.log")))).not.toThrow();
  expect(() => checkLogLocation(config(join(tmpdir(), "theodolite-x", "b.log")))).not.toThrow();
  let code = "";
  try {
    checkLogLocation(config("/etc/theodolite/b.log"));
  } catch (err) {
    code = (err as { code: string }).code;
    expect((err as Error).message).toContain("bridge.log.file");
  }
  expect(code).toBe("ConfigInvalid");
});
