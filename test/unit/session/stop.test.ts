/**
 * The stop ladder (src/session/stop.ts, SPEC §9.2) keeps one deadline whatever the server
 * does: a `shutdown` never answered and an `exit` whose write never completes (a server that
 * stopped reading) each take part of it, and the supervisor's ladder gets the rest.
 */
import { expect, test } from "bun:test";
import type { MessageConnection } from "vscode-languageserver-protocol";
import type { ExitInfo, SupervisedProcess } from "../../../src/process/launch.ts";
import { stopServer } from "../../../src/session/stop.ts";
import { within } from "../../support/wait.ts";

const KILLED: ExitInfo = { code: null, signal: "SIGKILL" };

function fakeProc(): { proc: SupervisedProcess; graces: number[]; calls: number[] } {
  const graces: number[] = [];
  /** when each ladder was asked for */
  const calls: number[] = [];
  const proc = {
    terminate: async (graceMs: number) => {
      graces.push(graceMs);
      calls.push(Date.now());
      return { exit: KILLED, path: "killed" as const };
    },
  } as unknown as SupervisedProcess;
  return { proc, graces, calls };
}

const never = () => new Promise<never>(() => {});

test("shutdown unanswered and exit never written: the ladder still ends by the deadline", async () => {
  const { proc, graces, calls } = fakeProc();
  let exitSent = false;
  const conn = {
    sendNotification: (method: string) => {
      exitSent = method === "exit";
      return never();
    },
  } as unknown as MessageConnection;
  const t0 = Date.now();
  const exit = await within(
    stopServer(proc, { deadline: t0 + 400, conn, shutdown: never }),
    5000,
    "the stop",
  );
  expect(exit).toEqual(KILLED);
  expect(exitSent).toBe(true);
  // the supervisor's ladder got what was left of the deadline, never more: measured when
  // the ladder was asked for, a little after its grace was worked out (a loaded machine
  // can hold the process between the two for a few ms); a grace not cut to what is left
  // would be 100 ms or more over
  expect(graces.length).toBe(1);
  const left = Math.max(0, t0 + 400 - (calls[0] ?? 0));
  expect(graces[0]).toBeLessThanOrEqual(left + 20);
});

test("a connection that throws at once and no time left: straight to the kill", async () => {
  const { proc, graces } = fakeProc();
  const conn = {
    sendNotification: () => {
      throw new Error("connection closed");
    },
  } as unknown as MessageConnection;
  await within(
    stopServer(proc, { deadline: Date.now(), conn, shutdown: async () => undefined }),
    5000,
    "the stop",
  );
  expect(graces).toEqual([0]);
});
