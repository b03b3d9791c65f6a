/**
 * The shared bridge on a real server (SPEC §2.2): typescript-language-server on the `ts`
 * fixture. A dedicated bridge's answers — initialize, tools/list, hover, definition,
 * references, document symbols, diagnostics — and those of two clients of one shared
 * bridge, the second attached to the warm server, are the same bytes.
 */
import { afterAll, expect, test } from "bun:test";
import { writeConfig } from "../support/bridge.ts";
import { present, realConfig } from "../support/real-bridge.ts";
import { copyFixture, findTypescriptLanguageServer } from "../support/real-servers.ts";
import { conversation, SharedWorld } from "../support/shared-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const tls = await findTypescriptLanguageServer();
const READS: [string, Record<string, unknown>][] = [
  ["hover", { file: "src/main.ts", line: 3, symbol: "Square" }],
  ["definition", { file: "src/main.ts", line: 4, symbol: "totalArea" }],
  ["references", { file: "src/shape.ts", line: 6, symbol: "Square" }],
  ["document_symbols", { file: "src/shape.ts" }],
  ["diagnostics", { file: "src/errors.ts" }],
];

const world = new SharedWorld();
afterAll(async () => {
  await world.cleanup();
  removeTempDirs();
});

test.skipIf(!present("typescript-language-server", tls, "not installed"))(
  "answers through the shared bridge, cold and warm, are byte-identical to a dedicated bridge's",
  async () => {
    if (tls === null) return;
    const root = copyFixture("ts", tempDir());
    const config = writeConfig(realConfig(root, tls.config));
    const dedicated = await conversation(world.client(["--config", config, "--isolated"]), READS);
    expect(dedicated.slice(2).map((l) => JSON.parse(l).result.isError)).toEqual(
      READS.map(() => undefined),
    );
    const cold = await conversation(world.client(["--config", config]), READS);
    const warm = await conversation(world.client(["--config", config]), READS);
    expect(cold).toEqual(dedicated);
    expect(warm).toEqual(dedicated);
    const bridge = await world.only();
    expect(bridge.clients).toHaveLength(2);
    expect(bridge.sessions).toHaveLength(1);
  },
);
