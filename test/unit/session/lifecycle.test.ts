/** SPEC §9.1: the session state machine, without processes. */
import { describe, expect, test } from "bun:test";
import { BridgeError } from "../../../src/errors.ts";
import {
  canMove,
  Lifecycle,
  type SessionState,
  TRANSITIONS,
} from "../../../src/session/lifecycle.ts";

const LABEL = { key: "ws/fake", workspace: "ws", server: "fake" };
const STATES = Object.keys(TRANSITIONS) as SessionState[];

function at(...path: SessionState[]): Lifecycle {
  const life = new Lifecycle(LABEL);
  for (const s of path) {
    if (s === "starting") life.beginLife();
    else life.moveTo(s);
  }
  return life;
}

describe("transitions", () => {
  test("a dead session comes back only through not_started (session_restart, eviction)", () => {
    expect(STATES.filter((s) => canMove("dead", s))).toEqual(["not_started", "dead"]);
  });

  test("nothing reaches ready but waiting_ready, and stopping ends stopped or dead", () => {
    expect(STATES.filter((s) => s !== "ready" && canMove(s, "ready"))).toEqual(["waiting_ready"]);
    expect(TRANSITIONS.stopping).toEqual(["not_started", "dead"]);
  });

  test("staying put is always allowed; every listed target is a state", () => {
    for (const s of STATES) {
      expect(canMove(s, s)).toBe(true);
      for (const t of TRANSITIONS[s]) expect(STATES).toContain(t);
    }
  });

  test("a move outside the table throws and leaves the state alone", () => {
    const life = at("starting", "initializing", "waiting_ready", "ready");
    expect(() => life.moveTo("starting")).toThrow("no transition from ready to starting");
    expect(life.state).toBe("ready");
    const dead = at("starting", "dead");
    expect(() => dead.moveTo("ready")).toThrow();
    expect(dead.state).toBe("dead");
  });
});

describe("one life after another", () => {
  test("each start is a new epoch that forgets the last life's error and failure", () => {
    const life = at("starting", "initializing");
    life.markBroken(new BridgeError("ServerError", "garbage"));
    expect(life.broken).toBe(true);
    life.moveTo("dead");
    life.recordExit({ code: 1, signal: null, stderr_tail: "bye" });
    expect(life.deadError().code).toBe("SessionDead");
    expect(life.deadError().details?.error).toMatchObject({ code: "ServerError" });
    life.moveTo("not_started");
    life.beginLife();
    expect(life.epoch).toBe(2);
    expect(life.broken).toBe(false);
    expect(life.lastError).toBeUndefined();
    // the last exit stays visible until the next one (session_status)
    expect(life.lastExit?.stderr_tail).toBe("bye");
  });

  test("readyAt is stamped by the move to ready and cleared by the next start", () => {
    const life = at("starting", "initializing", "waiting_ready");
    expect(life.readyAt).toBeUndefined();
    life.moveTo("ready");
    expect(typeof life.readyAt).toBe("number");
    life.moveTo("stopping");
    life.moveTo("not_started");
    life.beginLife();
    expect(life.readyAt).toBeUndefined();
  });

  test("use counters: busy while a call runs, ordered by the last use", () => {
    const life = at();
    life.beginUse(1);
    life.beginUse(2);
    expect(life.isIdle()).toBe(false);
    life.endUse(3);
    life.endUse(4);
    expect(life.isIdle()).toBe(true);
    expect(life.lastUsed).toBe(4);
  });
});
