/**
 * The supervisor end to end (SPEC §9.2), through launchSupervised and the
 * fake language server: relay, exit mirroring, and the tree reaped on every path.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchSupervised } from "../../src/process/launch.ts";
import { isAlive, readProc } from "../../src/process/proctree.ts";
import { waitFor, within } from "../support/wait.ts";
import {
  baseEnv,
  connect,
  INIT_PARAMS,
  launchFake,
  MAIN_TS,
  pidFromFile,
  Started,
  SUPERVISOR_ENTRY,
} from "./helpers.ts";

const started = new Started();
afterEach(() => started.cleanup());

const gone = (pid: number) => !isAlive(pid);
const O_NONBLOCK = 0o4000;

/** Every chunk the server writes, as it comes. */
function collect(stream: ReadableStream<Uint8Array>): Buffer[] {
  const chunks: Buffer[] = [];
  void (async () => {
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  })();
  return chunks;
}

describe("relay", () => {
  test("an LSP initialize round trip and a large multi-byte payload pass byte-exact", async () => {
    const proc = launchFake(started, {
      capabilities: { hoverProvider: true, renameProvider: { prepareProvider: true } },
    });
    const lsp = connect(started, proc);
    const init = (await lsp.sendRequest("initialize", INIT_PARAMS)) as {
      capabilities: unknown;
      serverInfo: { name: string };
    };
    expect(init.capabilities).toEqual({
      hoverProvider: true,
      renameProvider: { prepareProvider: true },
    });
    expect(init.serverInfo.name).toBe("fake-ls");
    lsp.sendNotification("initialized", {});

    const payload = { text: "αβγ 𝄞 \u0000 \r\n".repeat(200_000), n: 42 };
    expect(await lsp.sendRequest("fake/echo", payload)).toEqual(payload);

    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    const end = await proc.terminate(5000);
    expect(end).toEqual({ exit: { code: 0, signal: null }, path: "exited" });
  });

  test("non-LSP bytes on the server's stdout reach the bridge unchanged", async () => {
    const garbage = "Content-Length: nope\r\n\r\n\u00ff\u{1f600} garbage\n";
    const proc = launchFake(started, { garbage_stdout: garbage });
    const chunks = collect(proc.stdout);
    const frame = (msg: object) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }));
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    };
    proc.stdin.write(frame({ id: 1, method: "initialize", params: INIT_PARAMS }));
    proc.stdin.flush();
    await waitFor(() => Buffer.concat(chunks).includes('"id":1'), 5000, {
      what: "initialize result",
    });
    proc.stdin.write(frame({ method: "initialized", params: {} }));
    proc.stdin.flush();
    const want = Buffer.from(garbage);
    await waitFor(() => Buffer.concat(chunks).includes(want), 5000, { what: "the garbage bytes" });
    expect(Buffer.concat(chunks).subarray(-want.length).equals(want)).toBe(true);
  });

  test("the stderr marker gives the server pid and stays out of the stderr tail", async () => {
    const dir = started.tempDir();
    const proc = launchFake(started, {
      pidfile_server: join(dir, "server.pid"),
      stderr_lines: ["first line", "second line"],
    });
    const lines: string[] = [];
    proc.onStderrLine((l) => lines.push(l));
    const serverPid = await proc.serverPid;
    expect(serverPid).toBe(await pidFromFile(started, join(dir, "server.pid")));
    expect(readProc(serverPid ?? 0)?.ppid).toBe(proc.supervisorPid);
    expect(readProc(serverPid ?? 0)?.pgid).toBe(proc.supervisorPid); // same group as the supervisor
    expect(readProc(proc.supervisorPid)?.pgid).toBe(proc.supervisorPid); // a group leader
    await waitFor(() => lines.length >= 2, 5000, { what: "stderr lines" });
    expect(lines).toEqual(["first line", "second line"]);
    expect(proc.stderrTail()).toBe("first line\nsecond line\n");
  });
});

describe("server exit is mirrored and the tree reaped", () => {
  test("crash: same exit code, group daemon gone, stderr kept", async () => {
    const dir = started.tempDir();
    const daemonFile = join(dir, "daemon.pid");
    const proc = launchFake(started, {
      daemon: "group",
      pidfile: daemonFile,
      crash_on: ["initialized"],
      exit_code: 7,
      stderr_lines: ["about to crash"],
    });
    const daemon = await pidFromFile(started, daemonFile);
    expect(readProc(daemon)?.pgid).toBe(proc.supervisorPid);
    const lsp = connect(started, proc);
    await lsp.sendRequest("initialize", INIT_PARAMS);
    lsp.sendNotification("initialized", {});
    expect(await within(proc.exited, 5000, "supervisor exit")).toEqual({ code: 7, signal: null });
    expect(gone(daemon)).toBe(true);
    expect(gone(proc.supervisorPid)).toBe(true);
    expect(proc.stderrTail()).toContain("about to crash");
  });

  test("exit without shutdown mirrors code 1 (LSP)", async () => {
    const proc = launchFake(started, {});
    const lsp = connect(started, proc);
    await lsp.sendRequest("initialize", INIT_PARAMS);
    lsp.sendNotification("exit");
    expect(await within(proc.exited, 5000, "supervisor exit")).toEqual({ code: 1, signal: null });
  });

  for (const signal of ["SIGSEGV", "SIGABRT", "SIGPIPE"]) {
    test(`a server dying by ${signal}: the supervisor reports the same signal`, async () => {
      const proc = launchFake(started, { crash_after_ms: 0, exit_signal: signal });
      expect(await within(proc.exited, 5000, "supervisor exit")).toEqual({ code: null, signal });
    });
  }

  test("a server SIGKILLed from outside: SIGKILL is reported, daemons reaped", async () => {
    const dir = started.tempDir();
    const proc = launchFake(started, { daemon: "group", pidfile: join(dir, "d.pid") });
    const daemon = await pidFromFile(started, join(dir, "d.pid"));
    const server = await proc.serverPid;
    process.kill(server ?? 0, "SIGKILL");
    expect(await within(proc.exited, 5000, "supervisor exit")).toEqual({
      code: null,
      signal: "SIGKILL",
    });
    expect(gone(daemon)).toBe(true);
  });
});

describe("input closed (stdin and lifeline)", () => {
  test("a server that honours EOF exits on its own; its status is mirrored", async () => {
    const proc = launchFake(started, {}, { graceMs: 60_000 });
    await proc.serverPid;
    proc.closeInput();
    // its own exit status, not SIGKILL: it was not killed at the end of the grace
    expect(await within(proc.exited, 30_000, "supervisor exit")).toEqual({ code: 1, signal: null });
  });

  test("a server that ignores EOF is killed after the grace, with its daemon", async () => {
    const dir = started.tempDir();
    const graceMs = 300;
    const proc = launchFake(
      started,
      { ignore_stdin_eof: true, daemon: "group", pidfile: join(dir, "d.pid") },
      { graceMs },
    );
    const daemon = await pidFromFile(started, join(dir, "d.pid"));
    const server = (await proc.serverPid) ?? 0;
    const t0 = performance.now();
    proc.closeInput();
    const exit = await within(proc.exited, graceMs + 20_000, "supervisor exit");
    const elapsed = performance.now() - t0;
    console.log(`input closed → tree gone in ${elapsed.toFixed(0)} ms (grace ${graceMs} ms)`);
    expect(exit).toEqual({ code: null, signal: "SIGKILL" }); // it had to be killed
    expect(elapsed).toBeGreaterThanOrEqual(graceMs - 5);
    for (const pid of [server, daemon, proc.supervisorPid]) expect(gone(pid)).toBe(true);
  });
});

describe("escapes", () => {
  test("a setsid double-forked daemon is re-parented to the supervisor and reaped", async () => {
    const dir = started.tempDir();
    const proc = launchFake(started, { daemon: "setsid", pidfile: join(dir, "d.pid") });
    const daemon = await pidFromFile(started, join(dir, "d.pid"));
    const info = readProc(daemon);
    expect(info?.sid).not.toBe(readProc(proc.supervisorPid)?.sid); // it left our session…
    expect(info?.pgid).not.toBe(proc.supervisorPid); // …and our group…
    // …and its parent died, so the subreaper supervisor adopted it
    await waitFor(() => readProc(daemon)?.ppid === proc.supervisorPid, 5000, { what: "adoption" });
    const lsp = connect(started, proc);
    await lsp.sendRequest("initialize", INIT_PARAMS);
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    expect((await proc.terminate(5000)).path).toBe("exited");
    expect(gone(daemon)).toBe(true);
  });

  test("supervisor SIGKILLed: pdeathsig takes the server, the launcher's scan the group daemon", async () => {
    const dir = started.tempDir();
    const proc = launchFake(started, { daemon: "group", pidfile: join(dir, "d.pid") });
    const daemon = await pidFromFile(started, join(dir, "d.pid"));
    const server = (await proc.serverPid) ?? 0;
    process.kill(proc.supervisorPid, "SIGKILL");
    const exit = await within(proc.exited, 5000, "supervisor exit");
    expect(exit).toEqual({ code: null, signal: "SIGKILL" });
    // exited resolves only after the launcher's /proc scan has killed the leftovers
    expect(gone(daemon)).toBe(true);
    await waitFor(() => gone(server), 5000, { what: "server death by pdeathsig" });
  });

  test("hung supervisor: the ladder kills it and its whole tree, setsid daemon included", async () => {
    const dir = started.tempDir();
    const proc = launchFake(
      started,
      {
        daemons: [
          { kind: "group", pidfile: join(dir, "g.pid") },
          { kind: "setsid", pidfile: join(dir, "s.pid") },
        ],
      },
      { graceMs: 200 },
    );
    const group = await pidFromFile(started, join(dir, "g.pid"));
    const setsid = await pidFromFile(started, join(dir, "s.pid"));
    const server = (await proc.serverPid) ?? 0;
    await waitFor(() => readProc(setsid)?.ppid === proc.supervisorPid, 5000, { what: "adoption" });
    process.kill(proc.supervisorPid, "SIGSTOP"); // it can run none of its own paths now
    const end = await within(proc.terminate(200), 10_000, "terminate");
    expect(end).toEqual({ exit: { code: null, signal: "SIGKILL" }, path: "killed" });
    for (const pid of [server, group, setsid, proc.supervisorPid]) expect(gone(pid)).toBe(true);
  });

  test("shutdown never answered: the ladder closes stdin and the supervisor reaps", async () => {
    const proc = launchFake(
      started,
      { hang_on_shutdown: true, ignore_stdin_eof: true },
      { graceMs: 200 },
    );
    const lsp = connect(started, proc);
    await lsp.sendRequest("initialize", INIT_PARAMS);
    void lsp.sendRequest("shutdown").catch(() => {});
    // the supervisor's grace (200 ms after the EOF) ends before the ladder's (2 s)
    const end = await within(proc.terminate(2000), 10_000, "terminate");
    expect(end.path).toBe("stdin_closed");
    expect(end.exit).toEqual({ code: null, signal: "SIGKILL" });
  });
});

describe("no relay hop", () => {
  test("the server gets the bridge's own pipes, blocking, and not the lifeline", async () => {
    // and, started through `--exec-server`: no other descriptor, no signal ignored or blocked
    const dir = started.tempDir();
    // a shell "server" that changes no descriptor flag: it records what it was given, in
    // /proc by the pid /proc gives it (its own $$ differs inside a session's PID namespace)
    const self = "read -r p rest < /proc/self/stat";
    const record = (fd: number) =>
      `i=$(cat /proc/$p/fdinfo/${fd}); l=$(readlink /proc/$p/fd/${fd}); ` +
      `echo "$i" > fdinfo${fd}; echo "$l" > link${fd}`;
    const proc = launchSupervised({
      command: "/bin/sh",
      args: [
        "-c",
        `${self}; ${record(0)}; ${record(1)}; ${record(2)}; f=$(for d in /proc/$p/fd/*; do readlink "$d"; done); echo "$f" > fds; ` +
          "echo recorded > done; exec cat",
      ],
      cwd: dir,
      env: baseEnv(),
      graceMs: 1000,
      selfArgv: [process.execPath, SUPERVISOR_ENTRY],
    });
    started.track(proc.supervisorPid);
    await waitFor(() => existsSync(join(dir, "done")), 5000, { what: "the server's records" });
    const read = (name: string) => readFileSync(join(dir, name), "utf8");
    const supervisorLink = (fd: number) => readlinkSync(`/proc/${proc.supervisorPid}/fd/${fd}`);
    // stdin and stderr: the very pipes (or sockets) the bridge gave the supervisor, no
    // process in between; stdout too, which the supervisor itself no longer holds (its fd 1
    // is /dev/null, so the server's closing it reaches the bridge, SPEC §9.2)
    expect(read("link0").trim()).toBe(supervisorLink(0));
    expect(read("link2").trim()).toBe(supervisorLink(2));
    expect(read("link1").trim()).toMatch(/^(socket|pipe):/);
    expect(supervisorLink(1)).toBe("/dev/null");
    for (const fd of [0, 1, 2]) {
      const flags = /^flags:\s+([0-7]+)$/m.exec(read(`fdinfo${fd}`))?.[1];
      expect(flags).toBeDefined();
      expect(Number.parseInt(flags ?? "", 8) & O_NONBLOCK).toBe(0);
    }
    // no descriptor of the server is the lifeline
    const lifeline = supervisorLink(3);
    expect(lifeline).toMatch(/^(socket|pipe):/);
    expect(read("fds").split("\n")).not.toContain(lifeline);
    // once the shell is `cat` (its own descriptors were close-on-exec), only 0, 1, 2 are left
    const server = (await proc.serverPid) ?? 0;
    await waitFor(() => readFileSync(`/proc/${server}/cmdline`, "utf8").startsWith("cat\0"), 5000, {
      what: "the server to exec cat",
    });
    // the kernel switches the command line before it closes close-on-exec descriptors
    const fds = () => readdirSync(`/proc/${server}/fd`).sort();
    await waitFor(() => fds().length <= 3, 5000, { what: "the exec to close what it closes" });
    expect(fds()).toEqual(["0", "1", "2"]);
    const status = readFileSync(`/proc/${server}/status`, "utf8");
    expect(status.match(/^Sig(Blk|Ign):.*$/gm)).toEqual([
      "SigBlk:\t0000000000000000",
      "SigIgn:\t0000000000000000",
    ]);
    // and the LSP path works end to end through it: bytes in, the same bytes out
    const echoed = collect(proc.stdout);
    proc.stdin.write("ping\n");
    proc.stdin.flush();
    await waitFor(() => Buffer.concat(echoed).toString() === "ping\n", 5000, { what: "echo" });
    proc.closeInput();
    expect(await within(proc.exited, 5000, "exit")).toEqual({ code: 0, signal: null });
  });
});

describe("a light supervisor", () => {
  test("the supervisor runs without JIT tiers; the server's environment is its own", async () => {
    const dir = started.tempDir();
    const proc = launchFake(started, { pidfile_server: join(dir, "server.pid") });
    const server = await pidFromFile(started, join(dir, "server.pid"));
    const environ = (pid: number) =>
      readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter((e) => e !== "");
    expect(environ(proc.supervisorPid)).toContain("BUN_JSC_useDFGJIT=0");
    const serverEnv = environ(server);
    expect(serverEnv.some((e) => e.startsWith("BUN_JSC_"))).toBe(false);
    expect(serverEnv.some((e) => e.startsWith("THEODOLITE_SUPERVISOR_ENV="))).toBe(false);
    expect(serverEnv).toContain(
      `FAKE_LS_SCENARIO=${JSON.stringify({ pidfile_server: join(dir, "server.pid") })}`,
    );
  });

  test("a server environment that sets a JSC option keeps it, and so does the supervisor", async () => {
    const dir = started.tempDir();
    const proc = launchFake(
      started,
      { pidfile_server: join(dir, "server.pid") },
      { extraEnv: { BUN_JSC_useDFGJIT: "1" } },
    );
    const server = await pidFromFile(started, join(dir, "server.pid"));
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environ(server)).toContain("BUN_JSC_useDFGJIT=1");
    expect(environ(proc.supervisorPid)).toContain("BUN_JSC_useDFGJIT=1");
    expect(environ(proc.supervisorPid)).not.toContain("BUN_JSC_useBaselineJIT=0");
  });
});

describe("signals to the supervisor", () => {
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`${signal}: the tree is reaped and the supervisor exits`, async () => {
      const dir = started.tempDir();
      const proc = launchFake(started, { daemon: "group", pidfile: join(dir, "d.pid") });
      const daemon = await pidFromFile(started, join(dir, "d.pid"));
      const server = (await proc.serverPid) ?? 0;
      process.kill(proc.supervisorPid, signal);
      const exit = await within(proc.exited, 5000, "supervisor exit");
      expect(exit).toEqual({ code: null, signal: "SIGKILL" }); // mirrors the killed server
      for (const pid of [server, daemon]) expect(gone(pid)).toBe(true);
    });
  }
});

describe("start", () => {
  test("a server that cannot be executed: said on its stderr, exit 127 or 126 as a shell", async () => {
    const dir = started.tempDir();
    const notExecutable = join(dir, "not-executable");
    writeFileSync(notExecutable, "#!/bin/sh\n");
    for (const [command, code, errno] of [
      [join(dir, "no-such-server"), 127, "ENOENT"],
      [notExecutable, 126, "EACCES"],
    ] as const) {
      const proc = launchSupervised({
        command,
        args: [],
        cwd: dir,
        env: baseEnv(),
        graceMs: 1000,
        selfArgv: [process.execPath, SUPERVISOR_ENTRY],
      });
      started.track(proc.supervisorPid);
      expect(await within(proc.exited, 5000, "supervisor exit")).toEqual({ code, signal: null });
      expect(proc.stderrTail()).toContain(`cannot execute ${command}: ${errno}`);
    }
  });

  test("no bun:ffi for --exec-server (a server environment that turns the JIT off): said, exit 127", async () => {
    // the supervisor keeps a server environment's own JSC options, so both run without FFI
    const proc = launchFake(started, {}, { extraEnv: { BUN_JSC_useJIT: "0" } });
    expect(await within(proc.exited, 10_000, "supervisor exit")).toEqual({
      code: 127,
      signal: null,
    });
    expect(proc.stderrTail()).toContain("cannot set the parent-death signal");
    expect(proc.stderrTail()).toContain("no child subreaper");
  });

  test("a missing working directory is ServerStartFailed", () => {
    const dir = started.tempDir();
    expect(() => launchFake(started, {}, { cwd: join(dir, "missing") })).toThrow(
      expect.objectContaining({ code: "ServerStartFailed" }),
    );
  });

  test("`bun src/main.ts --supervise …` runs the same supervisor", async () => {
    expect(existsSync(MAIN_TS)).toBe(true);
    const proc = launchFake(started, {}, { selfArgv: [process.execPath, MAIN_TS] });
    const lsp = connect(started, proc);
    const init = (await lsp.sendRequest("initialize", INIT_PARAMS)) as { serverInfo: unknown };
    expect(init.serverInfo).toEqual({ name: "fake-ls", version: "0.0.0" });
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    expect(await proc.terminate(5000)).toEqual({ exit: { code: 0, signal: null }, path: "exited" });
  });
});
