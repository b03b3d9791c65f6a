/**
 * Containment of a daemon that hops (SPEC §9.2, src/process/contain.ts): it leaves the
 * session and re-forks every millisecond, each parent exiting at once. Under the
 * supervisor it is gone within 2 s of every end; its exited hops are collected as it
 * runs (no zombie pile-up); the supervisor names what it killed; and when the supervisor
 * itself is SIGKILLed, the launcher (a subreaper like the bridge) kills the hops it adopts.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { childrenOf } from "../../src/process/contain.ts";
import { becomeChildSubreaper } from "../../src/process/subreaper.ts";
import { PERL } from "../fake-server/hopper.ts";
import { hopping, killTagged, livePidsTagged, pidsAllocatedSince } from "../support/processes.ts";
import { waitFor, waitForValue, within } from "../support/wait.ts";
import { connect, INIT_PARAMS, launchFake, Started } from "./helpers.ts";

const started = new Started();
const tags: string[] = [];
afterEach(() => {
  for (const tag of tags.splice(0)) killTagged(tag);
  started.cleanup();
});
afterAll(() => {
  for (const tag of tags.splice(0)) killTagged(tag);
});

/** The must-show bound: nothing of the tree alive this long after the end. */
const GONE_MS = 2000;
/** How long a start or a note may take on a loaded machine (a bound, not a wait). */
const START_MS = 15_000;
const PROBE = `${import.meta.dir}/kill-children-probe.ts`;

function newTag(): string {
  const tag = `theodolite-hop-${process.pid}-${tags.length}-${Date.now()}`;
  tags.push(tag);
  return tag;
}

function zombieChildren(pid: number): number {
  return childrenOf(pid).filter((c) => {
    try {
      return /\) Z /.test(readFileSync(`/proc/${c}/stat`, "latin1"));
    } catch {
      return false;
    }
  }).length;
}

describe("killChildren", () => {
  test("spares what it is told to, kills the rest, collects what exited", async () => {
    const tag = newTag();
    // in a process of its own: nothing but the probe's children to find (see the probe)
    const probe = Bun.spawn([process.execPath, PROBE], {
      env: { ...process.env, HOP_TAG: tag },
      stdout: "pipe",
      stderr: "pipe",
    });
    started.track(probe.pid);
    const [out, err] = await within(
      Promise.all([new Response(probe.stdout).text(), new Response(probe.stderr).text()]),
      START_MS * 3,
      "the killChildren probe",
    );
    expect({ exit: await probe.exited, err: err.trim() }).toEqual({ exit: 0, err: "" });
    const seen = JSON.parse(out) as {
      subreaper: boolean;
      remaining: number[];
      killed: string[];
      liveTagged: number[];
      sparedRunning: boolean;
      sparedChild: boolean;
    };
    // named by its command line, or by its executable's name when it was exiting right then
    const perl = (c: string) => c.startsWith(`${PERL} -e use strict;`) || c === "[perl]";
    expect(seen.killed.some(perl)).toBe(true);
    expect({ ...seen, killed: [] }).toEqual({
      subreaper: true,
      remaining: [],
      killed: [],
      liveTagged: [],
      sparedRunning: true,
      sparedChild: true,
    });
    expect(livePidsTagged(tag)).toEqual([]);
  }, 60_000);
});

describe("a daemon re-forking every 1 ms", () => {
  test("an orderly end: every hop is gone within 2 s, and the supervisor names what it killed", async () => {
    const tag = newTag();
    const proc = launchFake(started, { daemons: [{ kind: "hop", pidfile: tag, interval_ms: 1 }] });
    const notes: string[] = [];
    proc.onStderrLine((line) => notes.push(line));
    const lsp = connect(started, proc);
    await lsp.sendRequest("initialize", INIT_PARAMS);
    await hopping(tag, START_MS);
    // the hops are the supervisor's children (it is their subreaper), and the ones that
    // exited are collected as it polls: after 1000 forks, no pile of zombies
    await waitFor(pidsAllocatedSince(1000), 10_000, { what: "1000 forks" });
    expect(zombieChildren(proc.supervisorPid)).toBeLessThan(300);
    await lsp.sendRequest("shutdown");
    lsp.sendNotification("exit");
    const t0 = performance.now();
    await proc.terminate(5000);
    await waitFor(() => livePidsTagged(tag).length === 0, GONE_MS, { what: "every hop gone" });
    console.log(`hopper (1 ms) reaped ${(performance.now() - t0).toFixed(0)} ms after the end`);
    // the note may still be on its way through the stderr pipe
    const killedNote = await waitForValue(
      () => notes.find((l) => l.includes("killed") && l.includes("leftover")),
      START_MS,
      { what: "the supervisor's note of what it killed" },
    );
    expect(killedNote).toContain("perl");
  }, 60_000);

  test("the lifeline closed while the server ignores it: the hops die with the tree", async () => {
    const tag = newTag();
    const proc = launchFake(
      started,
      { ignore_stdin_eof: true, daemons: [{ kind: "hop", pidfile: tag, interval_ms: 1 }] },
      { graceMs: 200 },
    );
    await hopping(tag, START_MS);
    proc.closeInput();
    await proc.exited;
    await waitFor(() => livePidsTagged(tag).length === 0, GONE_MS, { what: "every hop gone" });
  }, 60_000);

  test("supervisor SIGKILLed: the launcher, a subreaper, kills the hops it adopts", async () => {
    expect(becomeChildSubreaper()).toBe(true);
    const tag = newTag();
    const proc = launchFake(started, { daemons: [{ kind: "hop", pidfile: tag, interval_ms: 1 }] });
    await hopping(tag, START_MS);
    process.kill(proc.supervisorPid, "SIGKILL");
    await proc.exited;
    await waitFor(() => livePidsTagged(tag).length === 0, GONE_MS, { what: "every hop gone" });
  }, 60_000);
});
