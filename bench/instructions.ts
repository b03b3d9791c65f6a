/**
 * Instructions per call of the bridge's MCP path, counted by valgrind's callgrind: a
 * count barely moves when other processes share the cores, so two builds can be compared
 * on a busy machine. The bridge runs under callgrind; after warm-up calls the counters are
 * zeroed (`callgrind_control -z`), N calls run, and a dump gives their total. Only calls
 * that start no language server are measured (a supervisor cannot re-execute the bridge
 * under valgrind): an error result (the MCP path alone), a small `session_status`, and a
 * ~45 KB `session_status` (its gate transcript filled by refused apply calls).
 *
 *   bun bench/instructions.ts [--quick]   (needs valgrind; THEODOLITE_BENCH_BINARY as usual)
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  binary,
  count,
  fakeServer,
  makeTempDir,
  parseOptions,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { RawMcpClient } from "./mcp-raw.ts";

async function main(): Promise<void> {
  if (!Bun.which("valgrind") || !Bun.which("callgrind_control")) {
    console.log("instructions: not measured (valgrind is not installed)");
    return;
  }
  const calls = count(parseOptions(process.argv.slice(2)), 100, 30);
  const dir = makeTempDir("instructions");
  const root = join(dir, "ws");
  const dumps = join(dir, "callgrind");
  mkdirSync(root);
  mkdirSync(dumps);
  const config = writeBridgeConfig(
    { workspace: [{ name: "w", root, servers: ["fake"] }], server: [fakeServer("fake", {})] },
    dir,
  );
  const wrapper = join(dir, "under-callgrind.sh");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=${dumps}/out.%p "${binary()}" "$@" 2>/dev/null\n`,
    { mode: 0o755 },
  );
  const client = new RawMcpClient({
    binary: wrapper,
    args: ["--config", config],
    requestTimeoutMs: 600_000,
  });
  const control = (flag: string) =>
    Bun.spawnSync(["callgrind_control", flag, String(client.pid)], {
      stdout: "ignore",
      stderr: "ignore",
    });

  async function measure(name: string, call: () => Promise<unknown>): Promise<void> {
    for (let i = 0; i < 30; i++) await call();
    control("-z");
    for (let i = 0; i < calls; i++) await call();
    const before = new Set(readdirSync(dumps));
    control("-d");
    const dump = readdirSync(dumps).find((f) => !before.has(f));
    const total = dump
      ? Number(readFileSync(join(dumps, dump), "utf8").match(/^summary: (\d+)/m)?.[1])
      : NaN;
    console.log(`${name.padEnd(36)} ${(total / calls / 1e6).toFixed(3)} M instructions/call`);
  }

  try {
    await client.initialize();
    console.log(`bridge instructions per call (callgrind), ${calls} calls each`);
    await measure("unknown tool (an error result)", () => client.callTool("no_such_tool", {}));
    await measure("session_status (small result)", () => client.callTool("session_status", {}));
    for (let i = 0; i < 260; i++) {
      await client.callTool("rename_apply", { file: "a.fake", line: 1, column: 1, new_name: "x" });
    }
    await measure("session_status (~45 KB result)", () => client.callTool("session_status", {}));
  } finally {
    await client.close(60_000);
    removeDir(dir);
  }
}

await main();
