/** A server's check runs as one object (src/session/settle/runs.ts, SPEC §6). */
import { expect, test } from "bun:test";
import type { ServerConfig } from "../../../../src/config/types.ts";
import { runsOf } from "../../../../src/session/settle/runs.ts";
import { serverWith } from "../../../support/config-defaults.ts";

const server = (keys: Partial<ServerConfig> = {}) =>
  serverWith(
    { name: "s", command: "/bin/true", version: "1", languages: ["x"], roles: ["diagnostics"] },
    keys,
  );

test("a server without run patterns has no runs", () => {
  expect(runsOf(server())).toBeNull();
});

test("the runs keep their patterns compiled, the run start, barrier and republish", () => {
  const start = { method: "x/run", params: {} };
  const barrier = { method: "x/barrier", params: { q: 1 } };
  const runs = runsOf(
    server({
      diagnostics_runs: {
        progress: ["^checking$", "flycheck"],
        start,
        barrier: { ...barrier, republish: true },
      },
    }),
  );
  expect(runs?.sources).toEqual(["^checking$", "flycheck"]);
  expect(runs?.patterns.map((p) => p.test("checking"))).toEqual([true, false]);
  expect({ start: runs?.start, barrier: runs?.barrier, republish: runs?.republish }).toEqual({
    start,
    barrier,
    republish: true,
  });
});
