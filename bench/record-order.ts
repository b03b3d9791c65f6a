/**
 * Records the executable's bytecode layout (docs/TOOLCHAIN.md#the-bytecode-layout):
 *
 *   bun bench/record-order.ts
 *
 * Builds dist/theodolite, serves every read tool through it on a generated 100-file
 * TypeScript workspace (bench/profile.ts's workload: typescript-language-server from
 * test/servers) with BUN_BYTECODE_ORDER_OUT set, and writes the functions the bridge ran to
 * bench/bytecode.order, which build.ts lays out first. Functions are matched by a hash of
 * their syntax, so the file keeps working as the code changes; record it again when much of
 * the serve path was rewritten. Not in run.ts.
 */
import { copyFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, removeDir } from "./common.ts";

const ROOT = join(import.meta.dir, "..");
export const ORDER_FILE = join(import.meta.dir, "bytecode.order");

function run(argv: string[], env: Record<string, string> = {}): void {
  const r = Bun.spawnSync(argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "inherit",
    stderr: "inherit",
  });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (exit ${r.exitCode})`);
}

const dir = makeTempDir("order");
try {
  run([process.execPath, "build.ts"]);
  run(
    [
      process.execPath,
      "bench/profile.ts",
      "--binary",
      join(ROOT, "dist", "theodolite"),
      "--files",
      "100",
      "--calls",
      "60",
    ],
    { BUN_BYTECODE_ORDER_OUT: join(dir, "theodolite-%p.order") },
  );
  // the bridge writes its file on exit; the supervisors' environment carries no BUN_ names
  const [largest] = readdirSync(dir)
    .map((name) => ({ path: join(dir, name), bytes: statSync(join(dir, name)).size }))
    .sort((a, b) => b.bytes - a.bytes);
  if (largest === undefined) throw new Error("the bridge wrote no bytecode order");
  copyFileSync(largest.path, ORDER_FILE);
  console.log(`wrote ${ORDER_FILE} (${largest.bytes} bytes); rebuild with bun build.ts`);
} finally {
  removeDir(dir);
}
