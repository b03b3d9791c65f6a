/**
 * Memory in the unit that matters (SPEC §8.2), against the compiled bridge: a server
 * message is bounded in what it parses into, not only in bytes; stored diagnostics in
 * bytes, not only in count; answers to the server at their real size; a diagnostics answer
 * over everything the store admits in memory proportional to what it returns. While each
 * attack runs `ping` is answered within 2 s and the bridge stays under 300 MB; afterwards it
 * serves — a message past the parse bounds breaks the session (tree stopped, the next call
 * says why), the rest is absorbed — and what was only held, not kept, is given back once
 * the bridge has been idle (its resident size falls under IDLE_RSS_MB). Documents whose JSON
 * is six times their bytes (control characters) go to a server one at a time, escaped piece
 * by piece: eight hovered at once stay under the bounds, whether the server reads them or
 * stops reading (then the bound on what waits for it trips before anything of them is made).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, linkSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_JSON_BOUNDS } from "../../src/lsp/message-reader.ts";
import { keptDiagnostic } from "../../src/session/diagnostic-caps.ts";
import { DIAGNOSTIC_LIMITS } from "../../src/session/diagnostics.ts";
import { MAX_CONFIGURATION_ITEMS } from "../../src/session/server-requests.ts";
import {
  cappedDiagnostic,
  DIAGNOSTIC_BYTES,
  type HostilePlan,
} from "../fake-server/hostile-plan.ts";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { gone } from "../support/processes.ts";
import { RawBridge, type ToolAnswer } from "../support/raw-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";
import {
  attackAndBreak as breakingAttack,
  cleanupAfterEach,
  ended,
  expectBroken,
  type Hostile,
  MIB,
  type Pinged,
  peakRssMb,
  pingThrough,
  RSS_BOUND_MB,
  report,
  rssMb,
  sessionEntry,
  startedHostile,
  stopped,
} from "./bounds-harness.ts";

const { started } = cleanupAfterEach();

setDefaultTimeout(120_000);
/** The bridge's resident size once idle after an attack it absorbed (docs/PERFORMANCE.md). */
const IDLE_RSS_MB = 100;
const CONTAINERS = SERVER_JSON_BOUNDS.containers;

/** The resident size falls under IDLE_RSS_MB once the bridge is idle (its collection ran). */
async function givenBack(h: Hostile, boundMb = IDLE_RSS_MB): Promise<number> {
  let now = rssMb(h.bridge.pid);
  const under = () => {
    now = rssMb(h.bridge.pid);
    return now < boundMb;
  };
  await waitFor(under, 20_000, { what: `the bridge's resident size under ${boundMb} MB` });
  return now;
}

const attackAndBreak = (plan: HostilePlan, label: string, why: string) =>
  breakingAttack(started, plan, label, why);

describe("past what a message may parse into: the session breaks, the bridge stays small", () => {
  test("12. a notification of 31 MiB of {}", () =>
    attackAndBreak(
      { actions: [{ do: "shaped", into: "notification", shape: "objects", bytes: 31 * MIB }] },
      "a notification of 31 MiB of {}",
      `holds more than ${CONTAINERS} arrays and objects`,
    ));

  test("14. two diagnostics whose data is 30 MiB of {}", () =>
    attackAndBreak(
      {
        actions: [
          { do: "shaped", into: "publish_data", shape: "objects", bytes: 30 * MIB, count: 2 },
        ],
      },
      "diagnostics with data of 30 MiB of {}",
      `holds more than ${CONTAINERS} arrays and objects`,
    ));

  test("15. workspace/configuration with 1.4 M items", () =>
    attackAndBreak(
      {
        actions: [{ do: "shaped", into: "configuration", shape: "objects", bytes: 3 * 1_400_000 }],
      },
      "workspace/configuration × 1.4 M items",
      `holds more than ${CONTAINERS} arrays and objects`,
    ));
});

describe("absorbed in bounded bytes, and given back once idle", () => {
  /**
   * An attack the session absorbs: pinged through, then the diagnostics answer, the
   * session's entry, and the resident size once idle; the figures reported.
   */
  async function absorbed(plan: HostilePlan, label: string, idleMb = IDLE_RSS_MB) {
    const { h, hover } = await startedHostile(started, plan);
    const p = await pingThrough(h, ended(h));
    expect((await hover).isError).toBe(false); // answered after every message was read
    const d = await h.bridge.call("diagnostics", {}, 20_000);
    const idle = await givenBack(h, idleMb);
    report(label, p, h.bridge.pid, `; idle ${idle.toFixed(0)} MB`);
    expect(p.during).toBeGreaterThan(0);
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    expect(d.isError).toBe(false);
    const s = await sessionEntry(h.bridge);
    expect(s.state).toBe("ready");
    return { diagnostics: d.structured.diagnostics as { message: string }[], session: s };
  }

  test("13. 24 publishDiagnostics with a 30 MiB message each", async () => {
    const { diagnostics, session } = await absorbed(
      {
        actions: [
          { do: "shaped", into: "publish_message", shape: "string", bytes: 30 * MIB, count: 24 },
        ],
      },
      "publishDiagnostics × 24, 30 MiB messages",
    );
    expect(diagnostics.map((i) => i.message.length)).toEqual([16_385]);
    expect((session.diagnostics_dropped as { texts_cut: number }).texts_cut).toBe(24);
  });

  test("14b. diagnostics whose data passes its cap within the parse bounds: kept without it", async () => {
    const { diagnostics, session } = await absorbed(
      {
        actions: [
          { do: "shaped", into: "publish_data", shape: "string", bytes: 30 * MIB, count: 2 },
          { do: "shaped", into: "publish_data", shape: "numbers", bytes: 3 * MIB, count: 2 },
        ],
      },
      "diagnostics with 30 MiB data",
    );
    expect(diagnostics).toHaveLength(1);
    expect((session.diagnostics_dropped as { data: number }).data).toBe(4);
  });

  test("16. the worst that fits: objects, numbers and shapes each just under their bounds", async () => {
    const { containers, values, shapes } = SERVER_JSON_BOUNDS;
    await absorbed(
      {
        actions: [
          { do: "shaped", into: "notification", shape: "objects", bytes: 3 * (containers - 8) },
          { do: "shaped", into: "notification", shape: "numbers", bytes: 2 * (values - 8) },
          { do: "shaped", into: "notification", shape: "shapes", bytes: 14 * (shapes - 8) },
        ],
      },
      "just under the parse bounds",
    );
  });

  /**
   * The diagnostics answers over everything stored, each while pings go on (every one within
   * PING_BOUND_MS): a page, the whole file and the whole workspace (ResultTooLarge: the
   * answer is measured, never built), and `since` the page's snapshot.
   */
  async function answersOverAll(h: Hostile, stored: number) {
    const pings: Pinged[] = [];
    const call = async (args: Record<string, unknown>) => {
      let answer: ToolAnswer | undefined;
      const asked = h.bridge.call("diagnostics", args, 60_000).then((a) => {
        answer = a;
      });
      pings.push(await pingThrough(h, () => answer !== undefined));
      await asked;
      return answer as ToolAnswer;
    };
    const page = await call({ file: "a.fake", limit: 1 });
    expect(page.structured).toEqual(expect.objectContaining({ total: stored, next_offset: 1 }));
    for (const args of [{ file: "a.fake" }, {}]) {
      const whole = await call(args);
      expect(whole.code).toBe("ResultTooLarge");
      expect(whole.structured.details).toEqual(
        expect.objectContaining({
          count: stored,
          files: 1,
          by_file: [{ file: "a.fake", count: stored }],
        }),
      );
    }
    const since = await call({ since: page.structured.snapshot });
    expect(since.structured).toEqual(
      expect.objectContaining({ added: [], removed: [], unchanged: stored }),
    );
    const slowest = Math.max(...pings.map((p) => p.maxMs));
    const sent = pings.reduce((n, p) => n + p.pings, 0);
    return `; 4 diagnostics answers over them: ${sent} pings, slowest ${slowest.toFixed(0)} ms`;
  }

  test("17. 100,000 ordinary diagnostics in one publish: kept, and answered under the bounds", async () => {
    const { h, hover } = await startedHostile(started, {
      actions: [
        {
          do: "shaped",
          into: "publish_list",
          shape: "diagnostics",
          bytes: 100_000 * DIAGNOSTIC_BYTES,
        },
      ],
    });
    const p = await pingThrough(h, ended(h));
    expect((await hover).isError).toBe(false);
    const kept = peakRssMb(h.bridge.pid);
    const s = await sessionEntry(h.bridge);
    expect(s.diagnostics).toBe(100_000);
    expect(s.diagnostics_dropped).toEqual(expect.objectContaining({ items: 0, bytes: 0 }));
    const answers = await answersOverAll(h, 100_000);
    report(
      "100,000 diagnostics in one publish",
      p,
      h.bridge.pid,
      ` (${kept.toFixed(0)} MB before the answers)${answers}`,
    );
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  });

  test.each([
    ["capped_with_data", "with `data` at its cap too"],
    ["capped_diagnostics", "texts alone: more of them"],
  ] as const)(
    "18. the heaviest the store admits: every diagnostic at every cap (%s), %s",
    async (shape, label) => {
      // as many as the store's weight admits, within one message
      const one = cappedDiagnostic(0, shape === "capped_with_data");
      const weight = keptDiagnostic(JSON.parse(one))?.weight ?? 1;
      const count = Math.min(
        Math.floor(DIAGNOSTIC_LIMITS.bytes / weight),
        Math.floor((31 * MIB) / one.length),
      );
      const { h, hover } = await startedHostile(started, {
        actions: [{ do: "shaped", into: "publish_list", shape, bytes: count * one.length }],
      });
      const p = await pingThrough(h, ended(h));
      expect((await hover).isError).toBe(false);
      const kept = peakRssMb(h.bridge.pid);
      const s = await sessionEntry(h.bridge);
      expect(s.diagnostics).toBe(count);
      expect(s.diagnostics_dropped).toEqual(
        expect.objectContaining({ items: 0, bytes: 0, data: 0, texts_cut: 0 }),
      );
      const answers = await answersOverAll(h, count);
      report(
        `${count} diagnostics at every cap, ${label}`,
        p,
        h.bridge.pid,
        ` (${kept.toFixed(0)} MB before the answers)${answers}`,
      );
      expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    },
  );

  test("15b. workspace/configuration with 100,000 items: refused, the session stays ready", async () => {
    const answers = join(tempDir("theodolite-answers-"), "answers");
    const { h } = await startedHostile(started, {
      answers_file: answers,
      actions: [{ do: "shaped", into: "configuration", shape: "objects", bytes: 300_000 }],
    });
    const p = await pingThrough(h, ended(h));
    const answered = () => existsSync(answers) && readFileSync(answers, "utf8").endsWith("\n");
    await waitFor(answered, 10_000, { what: "the bridge's answer" });
    report("workspace/configuration × 100,000 items", p, h.bridge.pid);
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    // LSP RequestFailed, naming the bound
    expect(readFileSync(answers, "utf8")).toMatch(/^\d+ -32803 \d+\n$/);
    expect((await sessionEntry(h.bridge)).state).toBe("ready");
    const hover = await h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(hover.isError).toBe(false);
  });

  test("15c. answers to a server that does not read count at their size: the session breaks", async () => {
    // each answer: MAX_CONFIGURATION_ITEMS copies of 16 KiB of settings, 16 MiB
    const items = MAX_CONFIGURATION_ITEMS;
    const { h, pids } = await startedHostile(
      started,
      {
        actions: [
          { do: "stop_reading" },
          { do: "shaped", into: "configuration", shape: "objects", bytes: 3 * items, count: 8 },
        ],
      },
      {},
      { settings: { big: "b".repeat(16 * 1024) } },
    );
    const p = await pingThrough(h, stopped(pids));
    report("answers of 16 MiB to a server that does not read", p, h.bridge.pid);
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    await expectBroken(h, pids, "the server does not read its input");
  });
});

describe("documents of control characters: six bytes of JSON a character", () => {
  /** under max_file_bytes: 8,387,000 × U+0001 and a euro sign (the text is UTF-16 in memory) */
  const CONTROL_TEXT = `${"\u0001".repeat(8_387_000)}€`;
  const DOCUMENTS = 8;

  /** `DOCUMENTS` paths of one such file in `root` (hard links: the disk holds it once). */
  function controlDocuments(root: string): string[] {
    writeFileSync(join(root, "c0.fake"), CONTROL_TEXT);
    const names = Array.from({ length: DOCUMENTS }, (_, i) => `c${i}.fake`);
    for (const name of names.slice(1)) linkSync(join(root, "c0.fake"), join(root, name));
    return names;
  }

  /** Every document hovered at once: the answers, with pings back to back until all came. */
  async function hoveredAtOnce(h: Hostile, names: string[], until: () => boolean = () => true) {
    const answers: ToolAnswer[] = [];
    const calls = names.map((file) =>
      h.bridge.call("hover", { file, line: 1, column: 1 }, 90_000).then((a) => {
        answers.push(a);
      }),
    );
    const p = await pingThrough(h, () => answers.length === names.length && until());
    await Promise.all(calls);
    return { answers, p };
  }

  test("19. 8 hovered at once, a server that reads: each answered, under the bounds", async () => {
    const root = tempDir("theodolite-control-");
    writeFileSync(join(root, "a.fake"), "alpha\n");
    const names = controlDocuments(root);
    const config = writeConfig({
      bridge: { shutdown_grace_ms: 500, request_timeout_ms: 90_000 },
      workspace: [{ name: "w", root, servers: ["fake"] }],
      server: [fakeServer("fake", { responses: { "textDocument/hover": { contents: "c" } } })],
    });
    const bridge = await RawBridge.start(config);
    started.add(bridge.pid);
    const h = { bridge, root, marker: join(root, "no-marker") };
    const { answers, p } = await hoveredAtOnce(h, names);
    report(
      `${DOCUMENTS} control-character documents hovered at once, a server that reads`,
      { ...p, during: p.pings },
      bridge.pid,
    );
    for (const a of answers) {
      expect({ error: a.isError, text: a.structured.text }).toEqual({ error: false, text: "c" });
    }
    expect(peakRssMb(bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  });

  test("19b. 8 hovered at once, a server that stops reading: broken once it took nothing for 5 s, memory never grown", async () => {
    const { h, pids } = await startedHostile(
      started,
      { actions: [{ do: "stop_reading" }] },
      { request_timeout_ms: 30_000 },
    );
    const names = controlDocuments(h.root);
    const { answers, p } = await hoveredAtOnce(h, names, stopped(pids));
    report(
      `${DOCUMENTS} control-character documents to a server that stops reading`,
      { ...p, during: p.pings },
      h.bridge.pid,
    );
    for (const a of answers) expect(a.code).toBe("SessionDead");
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    expect(pids.server === null || gone(pids.server)).toBe(true);
    await expectBroken(h, pids, "the server does not read its input");
  });
});
