/**
 * What the profiling script (profile.ts) looks at from outside the bridge process: its
 * system calls (strace), its threads' CPU samples (perf), its critical path per call from
 * syscall tracepoints, and its memory (/proc). Linux only; strace and perf must be installed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, pollUntil, removeDir } from "./common.ts";
import { pssMb } from "./procfs.ts";

/** `strace -c -f -p PID` around `fn`; its summary table, per call. */
export async function straced(
  pid: number,
  n: number,
  fn: () => Promise<void>,
  log?: string,
): Promise<string> {
  const out = log ?? `${makeTempDir("strace")}/summary`;
  const mode = log === undefined ? ["-c"] : ["-tt", "-T", "-s", "80"];
  const strace = Bun.spawn(["strace", ...mode, "-f", "-o", out, "-p", String(pid)], {
    stderr: "pipe",
  });
  // strace says "Process PID attached" once it is tracing
  const reader = strace.stderr.getReader();
  let text = "";
  while (!text.includes("attached")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await fn();
  strace.kill("SIGINT");
  await strace.exited;
  if (log !== undefined) return `    written to ${log}`;
  const lines = (await Bun.file(out).text()).split("\n");
  removeDir(join(out, ".."));
  return lines
    .filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l))
    .map((l) => {
      const f = l.trim().split(/\s+/);
      const count = Number(f[3]);
      return `    ${(count / n).toFixed(2).padStart(8)} × ${f[f.length - 1]}`;
    })
    .join("\n");
}

/** `perf record -g -p PID` around `fn`; shares by thread, object and symbol. */
export async function perfed(pid: number, fn: () => Promise<void>): Promise<string> {
  const tmp = makeTempDir("perf");
  const data = join(tmp, "perf.data");
  const perf = Bun.spawn(
    ["perf", "record", "-e", "cpu-clock", "-F", "4000", "-g", "-o", data, "-p", String(pid)],
    { stdout: "ignore", stderr: "ignore" },
  );
  // perf has no "attached" line: wait until it created its output file
  await pollUntil(() => existsSync(data), 10_000, "perf record started");
  await fn();
  perf.kill("SIGINT");
  await perf.exited;
  const report = (sort: string, lines: number) => {
    const r = Bun.spawnSync(
      ["perf", "report", "-i", data, "--stdio", "--no-children", "-g", "none", "--sort", sort],
      { stdout: "pipe", stderr: "ignore" },
    );
    return r.stdout
      .toString()
      .split("\n")
      .filter((l) => /^\s+[\d.]+%/.test(l))
      .slice(0, lines)
      .map((l) => `    ${l.trim()}`)
      .join("\n");
  };
  const out = [
    `  by thread:\n${report("comm", 10)}`,
    `  by object:\n${report("dso", 10)}`,
    `  top symbols:\n${report("dso,sym", 40)}`,
  ].join("\n");
  removeDir(tmp);
  return out;
}

/**
 * The bridge's own critical path per call, from recvfrom/sendto tracepoints of its main
 * thread: "in" = the MCP request's bytes read (stdin, fd 0) → the first sendto after it
 * (the LSP request); "out" = the next recvfrom with data (the LSP answer) → the next
 * sendto (the MCP answer).
 */
export async function timeline(pid: number, fn: () => Promise<void>): Promise<string> {
  const tmp = makeTempDir("timeline");
  const data = join(tmp, "perf.data");
  const events = [
    "sys_enter_recvfrom",
    "sys_exit_recvfrom",
    "sys_enter_sendto",
    "sys_enter_epoll_pwait2",
  ];
  const perf = Bun.spawn(
    [
      "perf",
      "record",
      ...events.flatMap((e) => ["-e", `syscalls:${e}`]),
      "-o",
      data,
      "-p",
      String(pid),
    ],
    { stdout: "ignore", stderr: "ignore" },
  );
  await pollUntil(() => existsSync(data), 10_000, "perf record started");
  await fn();
  perf.kill("SIGINT");
  await perf.exited;
  const script = Bun.spawnSync(["perf", "script", "-i", data, "-F", "tid,time,event,trace"], {
    stdout: "pipe",
    stderr: "ignore",
  }).stdout.toString();
  removeDir(tmp);
  const ins: number[] = [];
  const outs: number[] = [];
  const wholes: number[] = [];
  const tails: number[] = [];
  const servers: number[] = [];
  let written = 0;
  let tailOpen = false;
  let begun = 0;
  let lastFd = -1;
  let phase: "idle" | "in" | "server" | "out" = "idle";
  let since = 0;
  for (const line of script.split("\n")) {
    const m = /^\s*(\d+)\s+([\d.]+):\s+syscalls:(\w+):\s*(.*)$/.exec(line);
    if (!m || Number(m[1]) !== pid) continue;
    const t = Number(m[2]) * 1e6;
    const event = m[3];
    const fd = /fd: (0x[0-9a-f]+)/.exec(m[4] ?? "");
    if (event === "sys_enter_recvfrom" && fd) lastFd = Number(fd[1]);
    else if (event === "sys_exit_recvfrom") {
      const ret = Number(/0x[0-9a-f]+$/.exec(m[4] ?? "")?.[0] ?? "-1");
      const got = ret > 0 && ret < 2 ** 62;
      if (!got) continue;
      if (lastFd === 0 && phase === "idle") [phase, since, begun] = ["in", t, t];
      else if (lastFd !== 0 && phase === "server") {
        servers.push(t - written);
        [phase, since] = ["out", t];
      }
    } else if (event === "sys_enter_epoll_pwait2") {
      if (tailOpen) tails.push(t - written);
      tailOpen = false;
    } else if (event === "sys_enter_sendto") {
      if (phase === "in") {
        ins.push(t - since);
        [phase, written, tailOpen] = ["server", t, true];
      } else if (phase === "out") {
        outs.push(t - since);
        wholes.push(t - begun);
        phase = "idle";
      }
    }
  }
  const q = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor(p * s.length))] as number);
  };
  const row = (name: string, xs: number[]) =>
    `    ${name}: p50 ${q(xs, 0.5).toFixed(0)} µs, p95 ${q(xs, 0.95).toFixed(0)} µs (n = ${xs.length})`;
  return [
    row("in  (MCP request read → LSP request written)", ins),
    row("out (LSP answer read → MCP answer written)", outs),
    row("whole (MCP request read → MCP answer written)", wholes),
    row("tail (LSP request written → the bridge waits for events)", tails),
    row("server (LSP request written → LSP answer read)", servers),
  ].join("\n");
}

/** VmRSS, RssAnon, RssFile and PSS in MB, and the resident MB of the largest mapping classes. */
export function memoryReport(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (kb: number) => (kb / 1024).toFixed(1);
  const field = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  const classes = new Map<string, number>();
  let current = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[2] === "" ? "[anon]" : (head[2] as string).replace(/^.*\//, "");
      current = `${head[1]} ${name}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) classes.set(current, (classes.get(current) ?? 0) + Number(rss[1]));
  }
  const top = [...classes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, v]) => `${mb(v)} ${k}`)
    .join(", ");
  return (
    `VmRSS ${mb(field("VmRSS"))} MB (anon ${mb(field("RssAnon"))}, file ${mb(field("RssFile"))}), ` +
    `PSS ${pssMb(pid)?.toFixed(1)} MB, VmHWM ${mb(field("VmHWM"))} MB; ${top}`
  );
}
