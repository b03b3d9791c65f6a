/**
 * A shared bridge that stops answering (SPEC §2.2), through the built binary on the
 * fake server: stopped with SIGSTOP, its socket still accepts and nothing answers. A
 * call in flight on a relay, a new client's handshake, `theodolite call` and `daemon
 * status` are each answered within their bounds — typed `SessionDead`,
 * `shared_bridge: "unresponsive"` — and the relay answers its next message at once
 * while the bridge stays stopped; once it goes on, the relay relays again. `daemon
 * stop` ends a stopped bridge and its tree.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { gone } from "../support/processes.ts";
import { fakeWorkspace, HOVER_ARGS, SharedWorld } from "../support/shared-bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitFor, waitForValue } from "../support/wait.ts";

let world: SharedWorld;
afterEach(async () => {
  await world.cleanup();
  removeTempDirs();
});

const HOVER = { file: "a.fake", line: 1, column: 1 };
const UNRESPONSIVE = { code: "SessionDead", details: { shared_bridge: "unresponsive" } };

/** A tool call's error envelope, from its raw answer line. */
function toolError(line: string): Record<string, unknown> {
  const answer = JSON.parse(line) as { result: { isError?: boolean; content: { text: string }[] } };
  expect(answer.result.isError).toBe(true);
  return JSON.parse(answer.result.content[0]?.text ?? "{}") as Record<string, unknown>;
}

describe("an unresponsive shared bridge", () => {
  test("stopped: every wait on it is bounded and typed, the relay fails fast meanwhile and relays again after", async () => {
    world = new SharedWorld();
    // the relay's quiet bound is the bridge's request timeout and a margin
    const { config, root } = fakeWorkspace({ request_timeout_ms: 1000 });
    const relay = world.client(["--config", config]);
    await relay.initialize("relay");
    const bridge = await world.only();
    process.kill(bridge.pid, "SIGSTOP");
    try {
      relay.call(2, "hover", HOVER);
      const newcomer = world.client(["--config", config]);
      const [inFlight, hello, call, status] = await Promise.all([
        relay.answer(2, 30_000),
        newcomer.initialize("newcomer"),
        world.run(["call", "hover", HOVER_ARGS, "--config", config], undefined, 30_000),
        world.status(),
      ]);
      expect(toolError(inFlight)).toMatchObject({
        ...UNRESPONSIVE,
        details: { pid: bridge.pid },
        hint: expect.stringContaining("theodolite daemon stop"),
      });
      expect((JSON.parse(hello) as { error: { data: unknown } }).error.data).toMatchObject(
        UNRESPONSIVE,
      );
      expect(call.code).toBe(1);
      expect(JSON.parse(call.err)).toMatchObject(UNRESPONSIVE);
      expect(status).toEqual([
        expect.objectContaining({ pid: bridge.pid, roots: [root], unresponsive: true }),
      ]);
      // while it stays stopped, the next message does not wait for the bound again
      const asked = Date.now();
      relay.call(3, "hover", HOVER);
      expect(toolError(await relay.answer(3, 30_000))).toMatchObject(UNRESPONSIVE);
      expect(Date.now() - asked).toBeLessThan(1000 + 2000);
    } finally {
      process.kill(bridge.pid, "SIGCONT");
    }
    // it goes on: the relay's probe is answered, and messages go to it again
    let id = 10;
    const answer = await waitForValue(
      async () => {
        relay.call(++id, "hover", HOVER);
        const line = await relay.answer(id, 30_000);
        return (JSON.parse(line) as { result: { isError?: boolean } }).result.isError
          ? undefined
          : line;
      },
      20_000,
      { what: "the relay relaying again", intervalMs: 100 },
    );
    expect(JSON.parse(answer).result.structuredContent).toMatchObject({ text: "from fake" });
    expect((await world.only()).pid).toBe(bridge.pid);

    // a stopped bridge cannot be asked to stop: daemon stop ends it and its tree
    process.kill(bridge.pid, "SIGSTOP");
    try {
      const stop = await world.run(["daemon", "stop", root], undefined, 30_000);
      expect(JSON.parse(stop.out)).toEqual({
        stopped: [{ pid: bridge.pid, roots: [root], exited: true, unresponsive: true }],
      });
      await waitFor(() => bridge.pids.every(gone), 10_000, { what: "the stopped tree gone" });
    } finally {
      if (!gone(bridge.pid)) process.kill(bridge.pid, "SIGCONT");
    }
  });
});
