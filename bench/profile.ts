/**
 * Where the per-call time goes: `bun bench/profile.ts [--server tls|clangd] [--files N]
 * [--tool NAME] [--calls N] [--binary PATH]`. The bridge serves one tool many times on a
 * generated workspace (after the same readiness as the overhead benchmark). Without
 * --binary it runs from source under `bun --cpu-prof-md`, and the markdown profile is
 * written to bench/out/profile-<server>-<tool>/ when it exits. Either way the CPU time the
 * bridge and its supervisor used per call is printed (utime + stime from /proc, which
 * unlike wall-clock time does not grow when other work shares the cores): compare two
 * builds with --binary. Not part of `run.ts`.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findClangd, findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { makeTempDir, removeDir } from "./common.ts";
import { generateCWorkspace } from "./gen-c-fixture.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { bridgePosition, type Spot, startPair } from "./pair.ts";

/** utime + stime of a process in ms (/proc/PID/stat fields 14 and 15, clock ticks). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** USER_HZ: 100 on every Linux ABI Bun runs on */
const CLOCK_TICKS_PER_SECOND = 100;

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const serverName = flag("server", "tls");
const files = Number(flag("files", "1000"));
const tool = flag("tool", "references");
const calls = Number(flag("calls", "2000"));
const compiled = flag("binary", "");

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
  const command =
    compiled !== ""
      ? [compiled]
      : [process.execPath, "--cpu-prof-md", `--cpu-prof-dir=${outDir}`, main];
  const pair = await startPair(found.config, bridgeRoot, directRoot, dir, requiredArgs, command);
  try {
    const args: Record<string, unknown> =
      tool === "references"
        ? bridgePosition(bridgeRoot, hubSpot)
        : tool === "workspace_symbols"
          ? { query: "fn_01" }
          : tool === "document_symbols"
            ? { file: fnSpot.file }
            : bridgePosition(bridgeRoot, fnSpot);
    for (let i = 0; i < 20; i++) await pair.bridge.callOk(tool, args); // warm caches and JIT
    const status = await pair.bridge.callOk("session_status", {});
    const sessions = status.structured.sessions as { pids: { supervisor: number | null } }[];
    const supervisor = sessions[0]?.pids.supervisor ?? 0;
    const cpu0 = [cpuMs(pair.bridge.pid), cpuMs(supervisor)];
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await pair.bridge.callOk(tool, args);
    const per = (performance.now() - t0) / calls;
    const [bridgeCpu, supervisorCpu] = [cpuMs(pair.bridge.pid), cpuMs(supervisor)].map(
      (v, k) => (v - (cpu0[k] as number)) / calls,
    );
    console.log(
      `${calls} × ${tool} on ${serverName} (${files} files): ${per.toFixed(3)} ms/call wall; ` +
        `CPU per call: bridge ${bridgeCpu?.toFixed(3)} ms, supervisor ${supervisorCpu?.toFixed(3)} ms`,
    );
  } finally {
    await pair.close();
  }
  console.log(`profile: ${outDir}`);
} finally {
  removeDir(dir);
}
