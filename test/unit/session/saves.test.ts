/**
 * The runs a session starts itself (`diagnostics_runs.start`, SPEC §5.3), without a server:
 * a run is requested once the server has loaded, after the other messages of the turn, one
 * at a time — the next only after the last requested one began — and again after a load.
 * An answer waits while a run is owed and for a run that began after the last request.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { clearDocuments, setup } from "../../support/documents.ts";
import { removeTempDirs } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);
afterEach(clearDocuments);

const RUN = "check/run";
const turn = () => new Promise<void>((resolve) => queueMicrotask(resolve));

function runServer(files: Record<string, string>, loaded = { now: true }) {
  const w = setup(files, { runRequest: RUN, loaded: () => loaded.now });
  let tokens = 0;
  const begin = () => {
    w.ctx.progress.update(`t${++tokens}`, { kind: "begin", title: "checking" });
    w.docs.saves.progressed();
    return `t${tokens}`;
  };
  const end = (token: string) => {
    w.ctx.progress.update(token, { kind: "end" });
    w.docs.saves.progressed();
  };
  const requests = () => w.take().filter(([m]) => m === RUN).length;
  return { w, begin, end, requests, loaded };
}

describe("diagnostics_runs.start: the bridge starts the server's runs", () => {
  test("a new life owes a run, requested once the server has loaded", async () => {
    const s = runServer({ "src/lib.rs": "fn a() {}" }, { now: false });
    expect(s.w.docs.saves.runOwed).toBe(true);
    s.w.docs.saves.requestIfWanted();
    expect(s.requests()).toBe(0);
    s.loaded.now = true;
    s.w.docs.saves.loaded();
    s.w.docs.saves.requestIfWanted();
    await turn();
    expect(s.requests()).toBe(1);
    expect(s.w.docs.saves.runOwed).toBe(true); // requested, not begun
    const t = s.begin();
    expect(s.w.docs.saves.runOwed).toBe(false);
    expect(s.w.ctx.progress.endedMatching([/checking/], s.w.docs.saves.mark)).toBe(false);
    s.end(t);
    expect(s.w.ctx.progress.endedMatching([/checking/], s.w.docs.saves.mark)).toBe(true);
  });

  test("documents changed together: one request, after their didChange and didSave", async () => {
    const s = runServer({ "a.py": "a", "b.py": "b" });
    s.w.docs.saves.requestIfWanted();
    s.end(s.begin());
    await s.w.open("a.py");
    await s.w.open("b.py");
    s.w.take();
    s.w.write("a.py", "a2");
    s.w.write("b.py", "b2");
    s.w.docs.sync();
    await turn();
    expect(s.w.take().map(([m]) => m)).toEqual([
      "didChange",
      "didSave",
      "didChange",
      "didSave",
      RUN,
    ]);
  });

  test("a change while a requested run has not begun waits for its begin, then asks again", async () => {
    const s = runServer({ "a.py": "a" });
    await s.w.open("a.py");
    s.w.docs.saves.requestIfWanted();
    expect(s.requests()).toBe(1);
    const firstMark = s.w.docs.saves.mark;
    s.w.write("a.py", "a2");
    s.w.docs.sync();
    await turn();
    // a request now could be merged into the pending one by the server's debounce
    expect(s.requests()).toBe(0);
    const first = s.begin();
    // the first run began: the change gets a run of its own, which will cancel it
    expect(s.requests()).toBe(1);
    expect(s.w.docs.saves.mark).toBeGreaterThan(firstMark ?? -1);
    s.end(first); // cancelled or finished: it began before the change's request
    expect(s.w.ctx.progress.endedMatching([/checking/], s.w.docs.saves.mark)).toBe(false);
    expect(s.w.docs.saves.runOwed).toBe(true);
    s.end(s.begin());
    expect(s.w.docs.saves.runOwed).toBe(false);
    expect(s.w.ctx.progress.endedMatching([/checking/], s.w.docs.saves.mark)).toBe(true);
  });

  test("a file it never opened changed: a run, not a save of another document", async () => {
    const s = runServer({ "src/lib.rs": "fn a() {}", "src/other.rs": "fn b() {}" });
    await s.w.open("src/lib.rs");
    s.w.docs.saves.requestIfWanted();
    s.end(s.begin());
    s.w.take();
    s.w.write("src/other.rs", "fn b() { nope }");
    s.w.docs.sync();
    await turn();
    expect(s.w.take()).toEqual([[RUN]]);
  });

  test("a load drops what was requested during it: asked again when it ends", async () => {
    const s = runServer({ "a.py": "a" });
    s.w.docs.saves.requestIfWanted();
    expect(s.requests()).toBe(1);
    const t = s.begin();
    s.loaded.now = false; // a reload began: it replaces the checkers, cancelling the run
    s.end(t);
    expect(s.w.docs.saves.runOwed).toBe(true); // the run that ended is no answer
    s.w.docs.saves.loaded(); // not loaded yet: nothing is requested
    await turn();
    expect(s.requests()).toBe(0);
    s.loaded.now = true;
    s.w.docs.saves.loaded();
    await turn();
    expect(s.requests()).toBe(1);
  });

  test("a session that does not serve diagnostics requests no run", async () => {
    const w = setup({ "a.py": "a" }, { runRequest: RUN, roles: ["semantics"] });
    await w.open("a.py");
    expect(w.docs.saves.runOwed).toBe(false);
    w.docs.saves.requestIfWanted();
    w.write("a.py", "a2");
    w.docs.sync();
    await turn();
    expect(w.take().some(([m]) => m === RUN)).toBe(false);
    expect(w.docs.saves.runOwed).toBe(false);
  });

  test("without a runs start nothing is requested and no run is owed", async () => {
    const w = setup({ "a.py": "a" }, { runs: true });
    await w.open("a.py");
    w.docs.saves.requestIfWanted();
    w.write("a.py", "a2");
    w.docs.sync();
    await turn();
    expect(w.take().some(([m]) => m === RUN)).toBe(false);
    expect(w.docs.saves.runOwed).toBe(false);
  });
});
