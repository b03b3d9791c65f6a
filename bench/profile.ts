/**
 * CPU profile of the bridge serving one tool many times, to see where the per-call time
 * goes: `bun bench/profile.ts [--server tls|clangd] [--files N] [--tool NAME] [--calls N]`.
 * The bridge runs from source under `bun --cpu-prof-md` on a generated workspace (after the
 * same readiness as the overhead benchmark); the markdown profile is written to
 * bench/out/profile-<server>-<tool>/ when the bridge exits. Not part of `run.ts`.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findClangd, findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { makeTempDir, removeDir } from "./common.ts";
import { generateCWorkspace } from "./gen-c-fixture.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { bridgePosition, type Spot, startPair } from "./pair.ts";

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const serverName = flag("server", "tls");
const files = Number(flag("files", "1000"));
const tool = flag("tool", "references");
const calls = Number(flag("calls", "2000"));

const found = serverName === "clangd" ? await findClangd() : await findTypescriptLanguageServer();
if (!found) throw new Error(`${serverName} not found`);
const outDir = join(import.meta.dir, "out", `profile-${serverName}-${tool}`);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const dir = makeTempDir("profile");
try {
  const bridgeRoot = join(dir, "bridge");
  const directRoot = join(dir, "direct");
  let hubSpot: Spot;
  let fnSpot: Spot;
  let requiredArgs: (root: string) => string[] = () => [];
  if (serverName === "clangd") {
    generateCWorkspace(bridgeRoot, files);
    generateCWorkspace(directRoot, files);
    hubSpot = { file: "src/hub.c", line: 3, symbol: "hub" };
    fnSpot = { file: "src/mod5/fn_0005.c", line: 6, symbol: "fn_0006" };
    requiredArgs = (root) => [`--compile-commands-dir=${root}`];
  } else {
    generateTsWorkspace(bridgeRoot, files);
    generateTsWorkspace(directRoot, files);
    hubSpot = { file: "src/hub.ts", line: 2, symbol: "hub" };
    fnSpot = { file: "src/mod5/fn_0005.ts", line: 20, symbol: "fn_0006" };
  }
  const main = join(import.meta.dir, "..", "src", "main.ts");
  const pair = await startPair(found.config, bridgeRoot, directRoot, dir, requiredArgs, [
    process.execPath,
    "--cpu-prof-md",
    `--cpu-prof-dir=${outDir}`,
    main,
  ]);
  try {
    const args: Record<string, unknown> =
      tool === "references"
        ? bridgePosition(bridgeRoot, hubSpot)
        : tool === "workspace_symbols"
          ? { query: "fn_01" }
          : tool === "document_symbols"
            ? { file: fnSpot.file }
            : bridgePosition(bridgeRoot, fnSpot);
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await pair.bridge.callOk(tool, args);
    const per = (performance.now() - t0) / calls;
    console.log(`${calls} × ${tool} on ${serverName} (${files} files): ${per.toFixed(3)} ms/call`);
  } finally {
    await pair.close();
  }
  console.log(`profile: ${outDir}`);
} finally {
  removeDir(dir);
}
