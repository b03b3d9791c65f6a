/**
 * The write protocol through the compiled bridge (SPEC §7.4), on a code action that edits
 * 600 files in six directories.
 *
 * Another writer's edit landing while `code_action_apply` writes — in place, or by rename —
 * is never lost: the apply answers WorkspaceDrift and every file is as before, the other
 * writer's text kept. Targets that a replacement would change (hard-linked, immutable, in an
 * append-only directory) are refused before anything is written.
 *
 * All files or none, across a kill: while `code_action_apply` writes them the bridge gets
 * SIGKILL or SIGTERM at a random point — while its temp files are being prepared, once a
 * random file has been swapped in, or while the replaced files are being removed. The next bridge on the workspace, started on the same
 * record directory, leaves every file old or every file new, no temp file and no record,
 * and says in session_status what it did. Seeded: a failure names its round.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { getFlags, setFlags } from "../../src/ffi/file-attributes.ts";
import { editEverywhereConfig, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeAllBridges, startBridge } from "../support/bridge.ts";
import { Prng } from "../support/prng.ts";
import { rounds } from "../support/rounds.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const FILES = 600;
const DIRS = 6;
const KILLS = rounds(10, 40);
const SEED = 0x39_a1_1e_05;

const ws = workspace();
const rels = Array.from({ length: FILES }, (_, i) => `d${i % DIRS}/f${i}.fake`);
const oldText = (i: number) => `old text of file ${i}\n`;
const newText = (i: number) => `NEW text of file ${i}\n`;
const state = tempDir("theodolite-apply-state-");

const fake = new FakeProbe("fake");
const changes = Object.fromEntries(
  rels.map((rel) => [ws.uri(rel), [{ range: lspRange(0, 0, 3), newText: "NEW" }]]),
);
const config = editEverywhereConfig({ fake, ws, changes, client: "theodolite-tests", state });

const texts = () => rels.map((rel) => ws.read(rel));
const allOld = rels.map((_, i) => oldText(i));
const allNew = rels.map((_, i) => newText(i));
const temps = () =>
  Array.from({ length: DIRS }, (_, d) => readdirSync(ws.path(`d${d}`)))
    .flat()
    .filter((n) => n.includes(".theodolite-"));

const FLAG_IMMUTABLE = 0x10;
const FLAG_APPEND = 0x20;

/** Set or clear an inode flag, as `chattr` does (root may set these two). */
function setFlag(path: string, flag: number, on: boolean): void {
  const fd = openSync(path, "r");
  try {
    setFlags(fd, on ? getFlags(fd) | flag : getFlags(fd) & ~flag);
  } finally {
    closeSync(fd);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Has the apply reached the point? prepare: k temp files made; swap: file k swapped in;
 * finish: every file swapped in and all but k of the replaced files removed.
 */
function reached(phase: "prepare" | "swap" | "finish", k: number, inodes: number[]): boolean {
  const swapped = (i: number) => statSync(ws.path(rels[i] as string)).ino !== inodes[i];
  if (phase === "prepare") return temps().length >= k;
  if (phase === "swap") return swapped(k);
  return swapped(FILES - 1) && temps().length <= k;
}

async function handleOf(bridge: BridgeHandle): Promise<string> {
  const r = await bridge.call("code_actions", { file: rels[0], line: 1, column: 1 });
  const handle = (r.structured.actions as { handle?: string }[] | undefined)?.[0]?.handle;
  if (handle === undefined) throw new Error(`no handle: ${r.text.slice(0, 2000)}`);
  return handle;
}

/** A bridge on the workspace with every file old again, and the handle of the edit. */
async function fresh(): Promise<{ bridge: BridgeHandle; handle: string; inodes: number[] }> {
  for (const [i, rel] of rels.entries()) ws.write(rel, oldText(i));
  const inodes = rels.map((rel) => statSync(ws.path(rel)).ino);
  const bridge = await startBridge({ config });
  return { bridge, handle: await handleOf(bridge), inodes };
}

describe("another writer meanwhile", () => {
  const writers: [string, (abs: string) => void][] = [
    [
      "writes into the last file (the same inode)",
      (abs) => appendFileSync(abs, "the other writer's line\n"),
    ],
    [
      "saves the last file by rename (an editor's atomic save)",
      (abs) => {
        writeFileSync(`${abs}.editor-tmp`, "the other writer's file\n");
        renameSync(`${abs}.editor-tmp`, abs);
      },
    ],
  ];
  for (const [label, write] of writers) {
    test(`${label} after the checks: WorkspaceDrift, every file as before, its edit kept`, async () => {
      const { bridge, handle } = await fresh();
      const last = ws.path(rels[FILES - 1] as string);
      const applying = bridge.call("code_action_apply", { handle });
      // the checks are done once the first temp file exists; the last file is swapped last
      await waitFor(() => temps().length > 0, 60_000, {
        intervalMs: 1,
        what: "the apply's first temp file",
      });
      write(last);
      const answer = await applying;
      expect(answer.isError).toBe(true);
      expect(answer.structured.code).toBe("WorkspaceDrift");
      expect(answer.structured.details).toEqual({ files: [rels[FILES - 1]] });
      const now = texts();
      expect(now.slice(0, FILES - 1)).toEqual(allOld.slice(0, FILES - 1));
      expect(now[FILES - 1]).toContain("the other writer's");
      expect(temps()).toEqual([]);
      expect(readdirSync(join(state, "applies"))).toEqual([]);
    }, 120_000);
  }
});

describe("targets a replacement would change are refused before anything is written", () => {
  test("a hard-linked target, an immutable one, one in an append-only directory", async () => {
    const { bridge, handle } = await fresh();
    const linked = ws.path(rels[10] as string);
    const immutable = ws.path(rels[20] as string);
    linkSync(linked, `${linked}.other-name`);
    setFlag(immutable, FLAG_IMMUTABLE, true);
    setFlag(ws.path("d5"), FLAG_APPEND, true);
    try {
      const answer = await bridge.call("code_action_apply", { handle });
      expect(answer.structured.code).toBe("ApplyFailed");
      const refused = (answer.structured.details as { refused: { file: string; reason: string }[] })
        .refused;
      expect(refused.find((r) => r.file === rels[10])?.reason).toContain("2 hard links");
      expect(refused.find((r) => r.file === rels[20])?.reason).toContain("immutable");
      expect(refused.filter((r) => r.reason.includes("append-only")).length).toBe(FILES / DIRS);
      expect(texts()).toEqual(allOld);
      expect(temps()).toEqual([]);
    } finally {
      setFlag(immutable, FLAG_IMMUTABLE, false);
      setFlag(ws.path("d5"), FLAG_APPEND, false);
      rmSync(`${linked}.other-name`);
    }
  }, 120_000);
});

test(`${KILLS} kills at random points of a ${FILES}-file apply: the next start leaves all old or all new, no temp file`, async () => {
  const prng = new Prng(SEED);
  const outcomes: string[] = [];
  for (let round = 0; round < KILLS; round++) {
    const { bridge, handle, inodes } = await fresh();
    const phase = prng.pick(["prepare", "swap", "finish"] as const);
    const k = prng.int(1, FILES - 1);
    const signal = prng.pick(["SIGKILL", "SIGTERM"] as const);
    let answered = false;
    const applying = bridge
      .call("code_action_apply", { handle })
      .then(() => {
        answered = true;
      })
      .catch(() => {});
    // kill the moment the apply has reached the chosen point (polled, as fast as it goes)
    await waitFor(() => answered || reached(phase, k, inodes), 60_000, {
      intervalMs: 1,
      what: `round ${round}: the apply reaching ${phase} ${k}`,
    });
    process.kill(bridge.pid, signal);
    await waitFor(() => !alive(bridge.pid), 10_000, { what: `round ${round}: the bridge's exit` });
    await applying;
    await bridge.close();

    // what the kill left: the record of an apply still under way, or none (it had ended)
    const left = readdirSync(join(state, "applies")).filter((n) => n.endsWith(".json")).length;
    const next = await startBridge({ config });
    const status = await next.call("session_status", {});
    const recovered = (status.structured.bridge as { recovered_applies: { action: string }[] })
      .recovered_applies;
    const now = texts();
    const whole = JSON.stringify(now) === JSON.stringify(allOld) ? "old" : "new";
    outcomes.push(`${phase}@${k}/${signal}→${recovered[0]?.action ?? "nothing"}`);
    expect(now, `round ${round} (${phase} ${k}, ${signal})`).toEqual(
      whole === "old" ? allOld : allNew,
    );
    expect(temps(), `round ${round}`).toEqual([]);
    expect(readdirSync(join(state, "applies")), `round ${round}`).toEqual([]);
    expect(recovered.length, `round ${round}: what the start did`).toBe(left);
    await next.close();
  }
  // both sides of the kill were hit: some applies undone, some finished or answered
  console.log(`apply kills: ${outcomes.join(", ")}`);
  expect(outcomes.some((o) => o.endsWith("undone"))).toBe(true);
  expect(outcomes.some((o) => o.endsWith("finished"))).toBe(true);
  expect(readFileSync(ws.path(rels[0] as string), "utf8")).toMatch(/text of file 0/);
}, 600_000);
