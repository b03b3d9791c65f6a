import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  isAlive,
  isDead,
  type ProcInfo,
  parseStat,
  readProc,
  reapTree,
  scanProcs,
  selectTree,
} from "../../src/process/proctree.ts";
import { waitFor } from "../support/wait.ts";
import { Started } from "./helpers.ts";

// A real line from /proc/PID/stat (a bun process), fields 3..52.
const TAIL =
  "S 5184 5184 3256 0 -1 4194304 101 0 0 0 0 0 0 0 20 0 1 0 35086 3133440 412 " +
  "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0";

describe("parseStat", () => {
  test("reads pid, ppid, pgid, sid, state, start time (field 22) and comm", () => {
    expect(parseStat(`5187 (cat) ${TAIL}`)).toEqual({
      pid: 5187,
      ppid: 5184,
      pgid: 5184,
      sid: 3256,
      state: "S",
      startTime: 35086,
      comm: "cat",
    });
  });

  test("a comm with spaces and ')' is read up to the LAST ')'", () => {
    const info = parseStat(`42 (evil) S 1 2 3 (x) y) ${TAIL}`);
    expect(info?.pid).toBe(42);
    expect(info?.ppid).toBe(5184);
    expect(info?.startTime).toBe(35086);
    expect(info?.comm).toBe("evil) S 1 2 3 (x) y");
    expect(parseStat(`7 ()) ${TAIL}`)?.ppid).toBe(5184);
    expect(parseStat(`7 (a b c) ${TAIL}`)?.state).toBe("S");
  });

  test("zombie state and a trailing newline", () => {
    const info = parseStat(`9 (defunct) ${TAIL.replace(/^S/, "Z")}\n`);
    expect(info?.state).toBe("Z");
    expect(isDead(info)).toBe(true);
  });

  test("malformed input gives null", () => {
    expect(parseStat("")).toBeNull();
    expect(parseStat("12 cat S 1 2 3")).toBeNull(); // no parentheses
    expect(parseStat("12 (cat) S 1 2 3")).toBeNull(); // too few fields
    expect(parseStat(`x (cat) ${TAIL}`)).toBeNull(); // pid not a number
    expect(parseStat(`12 (cat) ${TAIL.replace(/^S 5184/, "S -4")}`)).toBeNull();
  });
});

function p(pid: number, ppid: number, pgid: number, state = "S"): ProcInfo {
  return { pid, ppid, pgid, sid: pgid, state, startTime: pid * 10, comm: "p" };
}

describe("selectTree", () => {
  // 1 init; 100 bridge (group 100); 200 supervisor (group 200) → 201 server → 202 worker;
  // 203 group daemon re-parented to init; 300 setsid daemon (own group) re-parented to 200;
  // 301 its child; 400 unrelated; 204 zombie in the group.
  const scan: ProcInfo[] = [
    p(1, 0, 1),
    p(100, 1, 100),
    p(200, 100, 200),
    p(201, 200, 200),
    p(202, 201, 200),
    p(203, 1, 200),
    p(300, 200, 300),
    p(301, 300, 300),
    p(400, 1, 400),
    p(204, 201, 200, "Z"),
  ];
  const pids = (list: ProcInfo[]) => list.map((x) => x.pid);

  test("group members plus descendants, sorted, zombies left out", () => {
    expect(pids(selectTree(scan, 200, 200))).toEqual([200, 201, 202, 203, 300, 301]);
  });

  test("exclude drops a pid but still follows its children", () => {
    expect(pids(selectTree(scan, 200, 200, [200]))).toEqual([201, 202, 203, 300, 301]);
  });

  test("a dead root: group members and their descendants remain selectable", () => {
    const afterKill = scan.filter((x) => x.pid !== 200 && x.pid !== 300 && x.pid !== 301);
    expect(pids(selectTree(afterKill, 200, 200))).toEqual([201, 202, 203]);
  });

  test("descendants of a zombie are still followed", () => {
    const withZombieRoot = scan.map((x) => (x.pid === 200 ? { ...x, state: "Z" } : x));
    expect(pids(selectTree(withZombieRoot, 200, 200))).toEqual([201, 202, 203, 300, 301]);
  });

  test("pgid 0 selects by ancestry only", () => {
    expect(pids(selectTree(scan, 300, 0))).toEqual([300, 301]);
  });

  test("never selects the bridge, init or unrelated processes", () => {
    const sel = pids(selectTree(scan, 200, 200));
    for (const outsider of [1, 100, 400]) expect(sel).not.toContain(outsider);
  });
});

describe("live /proc", () => {
  const started = new Started();
  afterEach(() => started.cleanup());

  test("readProc(self) agrees with process.pid/ppid and scanProcs sees us", () => {
    const self = readProc(process.pid);
    expect(self?.pid).toBe(process.pid);
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.state).toBe("R");
    const raw = readFileSync("/proc/self/stat", "utf8");
    expect(Number(raw.slice(raw.lastIndexOf(")") + 2).split(" ")[19])).toBe(self?.startTime ?? -1);
    expect(scanProcs().some((x) => x.pid === process.pid)).toBe(true);
  });

  test("isAlive checks existence and the recorded start time (a reused pid is not alive)", () => {
    const self = readProc(process.pid);
    expect(self).not.toBeNull();
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(process.pid, self?.startTime)).toBe(true);
    expect(isAlive(process.pid, (self?.startTime ?? 0) + 1)).toBe(false);
    expect(readProc(2 ** 22 + 1)).toBeNull(); // above pid_max
    expect(isAlive(2 ** 22 + 1)).toBe(false);
  });

  test("isAlive is false for a zombie", async () => {
    // `sleep 0` exits as a child of sh, which then execs a program that never reaps it.
    const sh = Bun.spawn(["sh", "-c", "sleep 0 & exec sleep 30"], {
      stdio: ["ignore", "ignore", "ignore"],
    });
    started.track(sh.pid);
    const zombie = await waitForZombieChild(sh.pid);
    expect(readProc(zombie)?.state).toBe("Z");
    expect(isAlive(zombie)).toBe(false);
  });

  test("reapTree kills a group and its escaped descendants by pid, sparing the caller", async () => {
    // root (detached: own group) → a group child, and a setsid'd child that left the group
    const script =
      "const a = Bun.spawn(['sleep', '30']);" +
      "const b = Bun.spawn(['sleep', '31'], { detached: true });" +
      "console.log(JSON.stringify([a.pid, b.pid])); setInterval(() => {}, 1e9);";
    const root = Bun.spawn([process.execPath, "-e", script], {
      stdout: "pipe",
      stderr: "inherit",
      detached: true,
    });
    started.track(root.pid);
    const reader = root.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    const [inGroup, escaped] = JSON.parse(new TextDecoder().decode(value)) as [number, number];
    started.track(inGroup);
    started.track(escaped);
    expect(readProc(inGroup)?.pgid).toBe(root.pid);
    expect(readProc(escaped)?.pgid).toBe(escaped);

    // a wrong root start time means "pid reused": nothing is touched
    const wrongStart = await reapTree(root.pid, root.pid, { rootStartTime: 1 });
    expect(wrongStart.killed).toEqual([]);
    expect(isAlive(root.pid)).toBe(true);

    const result = await reapTree(root.pid, root.pid, {
      rootStartTime: readProc(root.pid)?.startTime,
    });
    expect(result.remaining).toEqual([]);
    expect(result.killed.sort((x, y) => x - y)).toEqual(
      [root.pid, inGroup, escaped].sort((x, y) => x - y),
    );
    for (const pid of [root.pid, inGroup, escaped]) expect(isAlive(pid)).toBe(false);
    expect(isAlive(process.pid)).toBe(true);
    expect(await root.exited).toBe(137);
  });
});

async function waitForZombieChild(parent: number): Promise<number> {
  let found = 0;
  await waitFor(
    () => {
      const z = scanProcs().find((x) => x.ppid === parent && x.state === "Z");
      if (z !== undefined) found = z.pid;
      return z !== undefined;
    },
    5000,
    { what: "a zombie child" },
  );
  return found;
}
