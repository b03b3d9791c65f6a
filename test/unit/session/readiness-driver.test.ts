/**
 * The readiness driver across server lives (SPEC §3.3, §9.1): a probe or warm-up of a life
 * that ended says nothing about the next one — an old probe's answer neither makes the new
 * life ready nor lets a second probe run beside the new life's own.
 */
import { expect, test } from "bun:test";
import { validateConfig } from "../../../src/config/validate.ts";
import { SessionContext } from "../../../src/session/context.ts";
import { defaultHooks } from "../../../src/session/hooks.ts";
import { ReadinessDriver } from "../../../src/session/readiness-driver.ts";
import { workspaceAt } from "../../support/workspace.ts";

const config = validateConfig(
  {
    workspace: [{ name: "ws", root: "/", servers: ["fake"] }],
    server: [
      {
        name: "fake",
        command: "/bin/true",
        version: "1",
        languages: ["fake"],
        extensions: { fake: "fake" },
        roles: ["semantics"],
        ready: { probe: { method: "workspace/symbol", params: { query: "" } } },
      },
    ],
  },
  "test",
);

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

function harness() {
  const ctx = new SessionContext(
    workspaceAt(config.workspaces[0]!.root),
    config.servers[0]!,
    config.bridge,
    defaultHooks(),
  );
  const { life } = ctx;
  const probes: Pending[] = [];
  const driver = new ReadinessDriver(ctx, {
    probe: () =>
      new Promise((resolve, reject) => {
        probes.push({ resolve, reject });
      }),
    openFile: () => {},
    endDead: () => {},
  });
  /** a new server life up to waiting_ready, its warm-up done and the driver attached */
  const startLife = async (): Promise<void> => {
    driver.reset();
    life.beginLife();
    life.moveTo("initializing");
    life.moveTo("waiting_ready");
    await driver.warmup();
    driver.attach();
    life.changes.notify();
  };
  /** the old life ends the way a restart ends it */
  const endLife = (): void => {
    life.moveTo("dead");
    life.moveTo("not_started");
  };
  /** every promise callback already due has run (one turn of the event loop, not a delay) */
  const settle = () => new Promise((r) => setImmediate(r));
  return { life, probes, startLife, endLife, settle };
}

test("an old life's probe answering after a restart does not make the new life ready", async () => {
  const h = harness();
  await h.startLife();
  expect(h.probes.length).toBe(1);
  h.endLife();
  await h.startLife();
  expect(h.probes.length).toBe(2);
  h.probes[0]!.resolve([]);
  await h.settle();
  h.life.changes.notify();
  expect(h.life.state).toBe("waiting_ready");
  h.probes[1]!.resolve([]);
  await h.settle();
  expect(h.life.state).toBe("ready");
});

test("an old life's failed probe does not start a second probe beside the new life's", async () => {
  const h = harness();
  await h.startLife();
  h.endLife();
  await h.startLife();
  expect(h.probes.length).toBe(2);
  h.probes[0]!.reject(new Error("connection closed"));
  await h.settle();
  // events of the new life: its own probe is still running, so none is sent again
  h.life.changes.notify();
  await h.settle();
  h.life.changes.notify();
  await h.settle();
  expect(h.probes.length).toBe(2);
});
