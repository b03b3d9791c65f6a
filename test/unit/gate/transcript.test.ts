import { describe, expect, test } from "bun:test";
import { type GateRecordInput, GateTranscript } from "../../../src/gate/transcript.ts";

const FIELDS = ["allow", "at", "client", "files", "reason", "seq", "server", "tool", "workspace"];

function decision(n: number): GateRecordInput {
  return {
    tool: n % 2 === 0 ? "code_action_apply" : "rename_apply",
    client: "ci-gate",
    workspace: "ws",
    server: "clangd",
    allow: n % 3 === 0,
    reason: n % 3 === 0 ? "allowed" : "used",
    files: n,
  };
}

describe("GateTranscript (SPEC §7.2)", () => {
  test("records decisions with increasing seq and an ISO timestamp", () => {
    const t = new GateTranscript();
    const before = Date.now();
    const a = t.record(decision(0));
    const b = t.record(decision(1));
    expect(a.seq).toBe(1);
    expect(b.seq).toBe(2);
    const at = Date.parse(a.at);
    expect(new Date(at).toISOString()).toBe(a.at);
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Date.now() + 1);
    expect(t.list()).toEqual([a, b]);
    expect(b).toMatchObject({ tool: "rename_apply", allow: false, reason: "used", files: 1 });
  });

  test("keeps only the newest `capacity` records, oldest first", () => {
    const t = new GateTranscript(3);
    for (let n = 0; n < 10; n++) t.record(decision(n));
    const list = t.list();
    expect(list.map((r) => r.seq)).toEqual([8, 9, 10]);
    expect(list.map((r) => r.files)).toEqual([7, 8, 9]);
  });

  test("default capacity is 256", () => {
    const t = new GateTranscript();
    for (let n = 0; n < 300; n++) t.record(decision(n));
    const list = t.list();
    expect(list.length).toBe(256);
    expect(list[0]?.seq).toBe(45);
    expect(list.at(-1)?.seq).toBe(300);
  });

  test("stores only the whitelisted metadata fields, even when handed more", () => {
    const t = new GateTranscript();
    const smuggled = {
      ...decision(3),
      handle: "ca_secret",
      newText: "int main() {}",
      edits: [{ newText: "x" }],
      content: "file contents",
    } as GateRecordInput;
    const returned = t.record(smuggled);
    for (const rec of [returned, ...t.list()]) {
      expect(Object.keys(rec).sort()).toEqual(FIELDS);
      const dump = JSON.stringify(rec);
      expect(dump).not.toContain("ca_secret");
      expect(dump).not.toContain("int main");
      expect(dump).not.toContain("file contents");
    }
  });

  test("list returns copies: callers cannot rewrite history", () => {
    const t = new GateTranscript();
    t.record(decision(0));
    const first = t.list()[0]!;
    first.allow = false;
    first.reason = "drift";
    expect(t.list()[0]).toMatchObject({ allow: true, reason: "allowed" });
  });

  test("rejects a capacity that is not a positive integer", () => {
    expect(() => new GateTranscript(0)).toThrow(RangeError);
    expect(() => new GateTranscript(1.5)).toThrow(RangeError);
  });
});
