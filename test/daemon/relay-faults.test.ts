/**
 * What the shared bridge's clients are told of its faults and of their own (SPEC §2.2),
 * through the built binary on the fake server: a malformed line is answered exactly as
 * a dedicated bridge answers it, the relay adding nothing; `theodolite call` that loses
 * the bridge mid-call gives the relay's envelope; and a client whose servers would get
 * another environment (`env_passthrough`) gets a bridge of its own.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { gone } from "../support/processes.ts";
import {
  fakeWorkspace,
  HOVER_ARGS,
  type SharedWorld,
  worldPerTest,
} from "../support/shared-bridge.ts";
import { waitFor, within } from "../support/wait.ts";

let world: SharedWorld;
worldPerTest((w) => {
  world = w;
});

/** Lines the bridge answers with `id: null`, not at all, or by id; then stdin's end. */
const MALFORMED = [
  '{"jsonrpc":"2.0","id":51,"method":"ping"', // cut off: a parse error, id null
  '{"jsonrpc":"2.0","id":{"o":1},"method":"ping"}', // an id that is no id: id null
  '{"jsonrpc":"2.0","method":"notifications/nothing"}', // a notification: no answer
  '{"jsonrpc":"2.0","id":52,"method":"ping"}', // answered by id
  "",
].join("\n");

describe("the relay adds nothing", () => {
  test("malformed lines, then stdin's end: the same bytes as a dedicated bridge's, no answer invented", async () => {
    const { config } = fakeWorkspace();
    const answers = async (args: string[]): Promise<string[]> => {
      const c = world.client(args);
      await c.sendRaw(MALFORMED);
      c.endInput();
      expect(await within(c.exited, 20_000, "the client's exit")).toBe(0);
      return [...c.lines].sort();
    };
    const dedicated = await answers(["--config", config, "--isolated"]);
    expect(dedicated).toHaveLength(3);
    expect(await answers(["--config", config])).toEqual(dedicated);
    // the bridge did not exit: it is still the one that started
    expect((await world.status()).length).toBe(1);
  });
});

describe("theodolite call", () => {
  test("a bridge lost mid-call: exit 1 with the relay's envelope, shared_bridge exited", async () => {
    const { config, record } = fakeWorkspace(
      {},
      { response_delay_ms: { "textDocument/hover": 60_000 } },
    );
    const call = world.run(["call", "hover", HOVER_ARGS, "--config", config], undefined, 30_000);
    await waitFor(
      () => existsSync(record) && readFileSync(record, "utf8").includes("textDocument/hover"),
      20_000,
      { what: "the call in flight at the server" },
    );
    const bridge = await world.only();
    process.kill(bridge.pid, "SIGKILL");
    const r = await call;
    expect(r.code).toBe(1);
    expect(JSON.parse(r.err)).toMatchObject({
      code: "SessionDead",
      details: { shared_bridge: "exited" },
    });
    await waitFor(() => bridge.pids.every(gone), 10_000, { what: "the killed tree gone" });
  });
});

describe("whose environment", () => {
  test("another value of a passed-through variable is another bridge; the same one shares", async () => {
    const { config } = fakeWorkspace({}, {}, { env_passthrough: ["PYTHONPATH"] });
    const call = (pythonpath: string) =>
      world.run(["call", "session_status", "--config", config], undefined, 60_000, {
        PYTHONPATH: pythonpath,
      });
    for (const path of ["/one", "/two", "/one"]) expect((await call(path)).code).toBe(0);
    const bridges = await world.status();
    expect(bridges).toHaveLength(2);
    expect(new Set(bridges.map((b) => b.socket)).size).toBe(2);
  });
});
