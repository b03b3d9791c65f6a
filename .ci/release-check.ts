/**
 * CI's release check (docs/TOOLCHAIN.md#releases, #proving-each-artifact-runs): builds the
 * release twice — here, and in a second clone in another directory with another TZ, LANG,
 * TMPDIR and umask — and requires the same SHA256SUMS and manifest.json; verifies the sums
 * with `sha256sum -c`; then runs every artifact the way .ci/setup-cross made possible:
 *
 * - all four: `--version --json` names the commit (clean), Bun and its target, and an MCP
 *   initialize + tools/list answers the golden tool surface, the apply class included
 *   (arm64 under qemu-user);
 * - linux-arm64 and linux-arm64-musl: `--exec-server` becomes the server it names (a native
 *   `sleep`, execve'd from under qemu) and that server dies by SIGKILL with its parent;
 * - linux-x64 and linux-x64-musl (native): a whole session, a supervised server reaching
 *   `ready`, with a PATH that holds no setpriv; without /proc (a mount namespace), the musl
 *   build refuses to start with EnvironmentUnsupported (exit 3) and the glibc build aborts
 *   inside Bun before any JavaScript runs (exit 134), as documented.
 *
 * Needs a clean checkout (the release refuses otherwise), root (unshare) and .ci/setup-cross.
 * Ends with `N passed, M failed`; exits 1 on any failure.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { stringify } from "smol-toml";
import { waitFor } from "../test/support/wait.ts";

const repo = join(import.meta.dir, "..");
const cross = process.env.THEODOLITE_CROSS ?? "/usr/local/lib/theodolite-cross";
const qemu = Bun.which("qemu-aarch64-static") ?? "qemu-aarch64-static";
const runners: Record<string, string[]> = {
  "linux-x64": [],
  "linux-x64-musl": [],
  "linux-arm64": [qemu, "-L", "/usr/aarch64-linux-gnu"],
  "linux-arm64-musl": [qemu, "-L", join(cross, "aarch64-musl")],
};
const native = new Set(["linux-x64", "linux-x64-musl"]);

let passed = 0;
let failed = 0;
function check(what: string, ok: boolean, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail === "" ? "" : `: ${detail}`}`);
}

function run(cmd: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = Bun.spawnSync(cmd, {
    cwd: opts.cwd ?? repo,
    env: opts.env ?? (process.env as Record<string, string>),
    stdout: "pipe",
    stderr: "pipe",
  });
  return {
    code: r.exitCode,
    signal: r.signalCode ?? null,
    out: r.stdout.toString(),
    err: r.stderr.toString(),
  };
}

function must(what: string, r: ReturnType<typeof run>): string {
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}):\n${r.out}${r.err}`);
  return r.out;
}

const t0 = performance.now();
const seconds = () => ((performance.now() - t0) / 1000).toFixed(1);
const work = mkdtempSync(join(tmpdir(), "theodolite-release-check-"));
const dirA = join(work, "a");
const cloneB = join(work, "elsewhere", "clone");

// --- two builds -----------------------------------------------------------------------
console.log(must("release A", run([process.execPath, ".ci/release.ts", "--out", dirA])));
must("clone B", run(["git", "clone", "-q", repo, cloneB]));
must("bun install in B", run([process.execPath, "install", "--frozen-lockfile"], { cwd: cloneB }));
const tmpB = join(work, "tmp-b");
mkdirSync(tmpB);
const envB = {
  ...(process.env as Record<string, string>),
  TZ: "Pacific/Chatham",
  LANG: "C",
  LC_ALL: "C",
  TMPDIR: tmpB,
};
const dirB = join(cloneB, "dist", "release");
must(
  "release B",
  run(["sh", "-c", `umask 077 && exec "${process.execPath}" .ci/release.ts`], {
    cwd: cloneB,
    env: envB,
  }),
);
const sums = readFileSync(join(dirA, "SHA256SUMS"), "utf8");
check(
  "SHA256SUMS identical in two directories",
  sums === readFileSync(join(dirB, "SHA256SUMS"), "utf8"),
);
const manifestA = readFileSync(join(dirA, "manifest.json"), "utf8");
check("manifest.json identical", manifestA === readFileSync(join(dirB, "manifest.json"), "utf8"));
const verify = run(["sha256sum", "-c", "SHA256SUMS"], { cwd: dirA });
check("sha256sum -c SHA256SUMS", verify.code === 0, verify.out.trim().replaceAll("\n", "; "));
console.log(`builds compared at t+${seconds()}s`);

// --- each artifact --------------------------------------------------------------------
const head = must("git rev-parse", run(["git", "rev-parse", "HEAD"])).trim();
const golden = JSON.parse(readFileSync(join(repo, "test/golden/tool-surface.json"), "utf8"));
const fakeLs = join(repo, "test", "fake-server", "fake-ls.ts");
const root = join(work, "workspace");
mkdirSync(root);
const emptyPath = join(work, "empty-bin"); // a PATH with nothing on it: no setpriv, no shell
mkdirSync(emptyPath);
const config = join(work, "bridge.toml");
writeFileSync(
  config,
  stringify({
    bridge: { mutation: "gated", mutation_allowlist: ["release-check"] },
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [
      {
        name: "fake",
        command: process.execPath,
        args: [fakeLs],
        version: Bun.version,
        languages: ["fake"],
        extensions: { fake: "fake" },
        roles: ["semantics"],
      },
    ],
  }),
);

async function mcp(target: string, binary: string): Promise<void> {
  const [command = binary, ...prefix] = [...(runners[target] ?? []), binary];
  const transport = new StdioClientTransport({
    command,
    args: [...prefix, "--config", config, "--isolated"],
    env: { PATH: emptyPath, HOME: work },
    stderr: "pipe",
  });
  const client = new Client({ name: "release-check", version: "1" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    check(
      `${target} initialize + tools/list`,
      JSON.stringify(tools) === JSON.stringify(golden),
      `${tools.length} tools: ${tools.map((t) => t.name).join(" ")}`,
    );
    if (!native.has(target)) return;
    const r = await client.callTool(
      { name: "session_status", arguments: { start: true } },
      undefined,
      { timeout: 60_000 },
    );
    const status = r.structuredContent as {
      sessions: { state: string; pids: { supervisor: number; server: number } }[];
    };
    const session = status.sessions[0];
    // the server is the supervisor's own child: started by --exec-server, no helper between
    const stat = readFileSync(`/proc/${session?.pids.server}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    check(
      `${target} session reaches ready, PATH without setpriv`,
      session?.state === "ready" && ppid === session.pids.supervisor,
      `${JSON.stringify(session?.pids)}, server's parent ${ppid}`,
    );
  } catch (err) {
    check(`${target} MCP`, false, String(err));
  } finally {
    await client.close();
  }
}

/** The server's state letter (`/proc/PID/stat`), or null once it is gone. */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

/** `--exec-server` under a shell: it becomes `sleep`, and dies when the shell is SIGKILLed. */
async function deathSignal(target: string, binary: string): Promise<void> {
  const pidFile = join(work, `${target}.pid`);
  const runner = (runners[target] ?? []).map((a) => `"${a}"`).join(" ");
  const sh = Bun.spawn([
    "sh",
    "-c",
    `${runner} "${binary}" --exec-server --parent-pid $$ -- /bin/sleep 60 & echo $! > "${pidFile}"; wait`,
  ]);
  let child = 0;
  try {
    await waitFor(
      () => {
        try {
          child = Number(readFileSync(pidFile, "utf8"));
          return readFileSync(`/proc/${child}/cmdline`, "utf8").startsWith("/bin/sleep\0");
        } catch {
          return false; // not written yet, or not started yet
        }
      },
      30_000,
      { what: `${target} --exec-server to become sleep` },
    );
    sh.kill("SIGKILL");
    await waitFor(() => [null, "Z", "X"].includes(stateOf(child)), 5000, {
      what: "the server's death",
    });
    check(`${target} --exec-server: execve'd the server, which died with its parent`, true);
  } catch (err) {
    check(`${target} --exec-server`, false, String(err));
    sh.kill("SIGKILL");
    if (child > 0 && stateOf(child) !== null) process.kill(child, "SIGKILL");
  }
}

for (const target of Object.keys(runners)) {
  const binary = join(dirA, `theodolite-${target}`);
  const v = run([...(runners[target] ?? []), binary, "--version", "--json"]);
  let p: Record<string, unknown> = {};
  try {
    p = JSON.parse(v.out) as Record<string, unknown>;
  } catch {
    // reported below
  }
  const want = { commit: head, dirty: false, bun: Bun.version, target };
  check(
    `${target} --version --json`,
    Object.entries(want).every(([k, x]) => p[k] === x),
    v.out.trim() || v.err.trim(),
  );
  await mcp(target, binary);
  if (!native.has(target)) await deathSignal(target, binary);
  console.log(`${target} done at t+${seconds()}s`);
}

// --- without /proc --------------------------------------------------------------------
const noProc = (binary: string) =>
  run([
    "unshare",
    "-m",
    "--propagation",
    "private",
    "sh",
    "-c",
    `umount -l /proc && exec "${binary}" --config "${config}" </dev/null`,
  ]);
const musl = noProc(join(dirA, "theodolite-linux-x64-musl"));
check(
  "linux-x64-musl without /proc: EnvironmentUnsupported, exit 3",
  musl.code === 3 &&
    musl.err.includes('"code":"EnvironmentUnsupported"') &&
    musl.err.includes("/proc is not mounted"),
  `exit ${musl.code} ${musl.err.trim()}`,
);
const glibc = noProc(join(dirA, "theodolite-linux-x64"));
check(
  "linux-x64 without /proc: Bun aborts before JavaScript (documented)",
  glibc.signal === "SIGABRT" || glibc.code === 134,
  `exit ${glibc.code ?? glibc.signal}`,
);

rmSync(work, { recursive: true, force: true });
console.log(`release check took ${seconds()}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
