/**
 * killChildren run in a process of its own, for test/process/containment.test.ts: the test
 * runner is a subreaper too, and a launcher's reap of adopted orphans (src/process/launch.ts)
 * left running by an earlier test file would kill the hops before killChildren saw them.
 * Here nothing else is a child: the spared `sleep` and the hops only.
 * Usage: HOP_TAG=<tag> bun kill-children-probe.ts. Prints one JSON line with what it saw.
 */
import { childrenOf, killChildren } from "../../src/process/contain.ts";
import { readProc } from "../../src/process/proctree.ts";
import { becomeChildSubreaper } from "../../src/process/subreaper.ts";
import { hopperArgv } from "../fake-server/hopper.ts";
import { hopping, livePidsTagged } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

// by environment, not argv: a child forked from here carries our command line until it execs
const tag = process.env.HOP_TAG;
if (tag === undefined) throw new Error("usage: HOP_TAG=<tag> bun kill-children-probe.ts");
const START_MS = 15_000;
const GONE_MS = 2000;

const subreaper = becomeChildSubreaper();
const spared = Bun.spawn(["sleep", "30"], { stdio: ["ignore", "ignore", "ignore"] });
try {
  // the hopper's first process exits at once: its hops become our children
  Bun.spawn(hopperArgv(tag, 1, 10_000), { stdio: ["ignore", "ignore", "ignore"] });
  // our own session's children (Bun's, the hopper's first process) are spared, and so is
  // the first hop until its setsid: the hops are what killChildren must kill once none of
  // them is in our session any more
  const sid = readProc(process.pid)?.sid;
  await waitFor(
    () => {
      const sessions = livePidsTagged(tag).map((pid) => readProc(pid)?.sid);
      return sessions.length > 0 && sessions.every((s) => s !== undefined && s !== sid);
    },
    START_MS,
    { what: "the hops out of our session" },
  );
  await hopping(tag, START_MS);
  const r = await killChildren(
    { self: process.pid, spare: (p) => p.sid === sid, ownGroups: [] },
    GONE_MS,
  );
  const seen = {
    subreaper,
    remaining: r.remaining,
    killed: r.killed.map((k) => k.command),
    liveTagged: livePidsTagged(tag),
    sparedRunning: spared.exitCode === null,
    sparedChild: childrenOf(process.pid).includes(spared.pid),
  };
  process.stdout.write(`${JSON.stringify(seen)}\n`);
} finally {
  spared.kill("SIGKILL");
  await spared.exited;
}
