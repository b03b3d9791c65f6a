/**
 * Republish rounds (`diagnostics_runs.barrier.republish`, SPEC §6), without a server: once
 * a run's publishes are in, every file published since the last confirmed round is closed —
 * and opened again where the session holds it open — so the server publishes it once more,
 * after everything it sent. A round is confirmed by the next call unless a run began in
 * between.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { pathToUri } from "../../../src/workspace/uri.ts";
import { clearDocuments, setup } from "../../support/documents.ts";
import { removeTempDirs } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);
afterEach(clearDocuments);

function server(republish = true) {
  const w = setup({ "a.py": "a", "b.py": "b", "c.py": "c" }, { republish });
  const publish = (...files: string[]) => {
    for (const f of files) {
      w.ctx.diagnostics.onPublish({ uri: pathToUri(`${w.root}/${f}`), diagnostics: [] });
    }
  };
  return { w, publish, round: () => w.docs.republish.round() };
}

describe("republish: files published since the last round are asked again", () => {
  test("an open file is closed and opened again; one not open is only closed", async () => {
    const s = server();
    await s.w.open("a.py");
    s.w.take();
    s.publish("a.py", "b.py");
    expect(s.round()).toBe(true);
    expect(s.w.take()).toEqual([
      ["didClose", "a.py"],
      ["didOpen", "a.py", 2],
      ["didClose", "b.py"],
    ]);
    // the document stays open, one version on
    expect(s.w.docs.get(pathToUri(`${s.w.root}/a.py`))?.version).toBe(2);
  });

  test("the round's own publishes confirm it: the next call sends nothing", () => {
    const s = server();
    s.publish("b.py");
    expect(s.round()).toBe(true);
    s.w.take();
    s.publish("b.py"); // the server's answer to the close
    expect(s.round()).toBe(false);
    expect(s.w.take()).toEqual([]);
    // until a file is published again
    s.publish("c.py");
    expect(s.round()).toBe(true);
    expect(s.w.take()).toEqual([["didClose", "c.py"]]);
  });

  test("a run begun before the round was confirmed: its files are asked again", () => {
    const s = server();
    s.publish("b.py");
    expect(s.round()).toBe(true);
    s.w.take();
    s.w.ctx.progress.update("t1", { kind: "begin", title: "checking" });
    s.publish("b.py", "c.py");
    s.w.ctx.progress.update("t1", { kind: "end" });
    expect(s.round()).toBe(true);
    expect(s.w.take()).toEqual([
      ["didClose", "b.py"],
      ["didClose", "c.py"],
    ]);
  });

  test("a server without the key is never asked", () => {
    const s = server(false);
    s.publish("a.py", "b.py");
    expect(s.round()).toBe(false);
    expect(s.w.take()).toEqual([]);
  });

  test("a new life starts over: everything published in it is owed a round", () => {
    const s = server();
    s.publish("b.py");
    expect(s.round()).toBe(true);
    s.publish("b.py");
    expect(s.round()).toBe(false);
    s.w.docs.reset();
    s.w.ctx.resetServerState();
    s.w.take();
    s.publish("c.py");
    expect(s.round()).toBe(true);
    expect(s.w.take()).toEqual([["didClose", "c.py"]]);
  });
});
