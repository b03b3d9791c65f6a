import { describe, expect, test } from "bun:test";
import { decideAdmission, type SlotView } from "../../../src/session/admission.ts";

function view(session: string, over: Partial<SlotView<string>> = {}): SlotView<string> {
  return {
    session,
    occupies: true,
    reserved: false,
    idle: true,
    stopping: false,
    lastUsed: 0,
    ...over,
  };
}

describe("decideAdmission (SPEC §9.1)", () => {
  test("a free slot admits; the incoming session itself never counts", () => {
    expect(decideAdmission("c", [view("a"), view("c")], 2)).toEqual({ kind: "admit" });
    expect(decideAdmission("c", [view("a", { occupies: false }), view("b")], 2)).toEqual({
      kind: "admit",
    });
  });

  test("starting, live, stopping and reserved sessions all hold a slot", () => {
    const views = [
      view("a", { stopping: true, idle: false }),
      view("b", { reserved: true, idle: false }),
    ];
    expect(decideAdmission("c", views, 2)).toEqual({ kind: "limit", busy: ["a", "b"] });
  });

  test("full: the least recently used idle session is the victim", () => {
    const views = [
      view("a", { lastUsed: 5 }),
      view("b", { lastUsed: 2 }),
      view("c", { lastUsed: 9 }),
    ];
    expect(decideAdmission("d", views, 3)).toEqual({ kind: "evict", victim: "b" });
  });

  test("one already stopping goes first: it frees its slot soonest", () => {
    const views = [view("a", { lastUsed: 1 }), view("b", { lastUsed: 7, stopping: true })];
    expect(decideAdmission("c", views, 2)).toEqual({ kind: "evict", victim: "b" });
  });

  test("busy and reserved sessions are never victims; none idle is SessionLimit", () => {
    const views = [view("a", { idle: false }), view("b", { reserved: true })];
    expect(decideAdmission("c", views, 2)).toEqual({ kind: "limit", busy: ["a", "b"] });
  });

  test("a victim already tried for this admission is not chosen twice", () => {
    const views = [view("a", { lastUsed: 1 }), view("b", { lastUsed: 2 })];
    expect(decideAdmission("c", views, 2, new Set(["a"]))).toEqual({ kind: "evict", victim: "b" });
    expect(decideAdmission("c", views, 2, new Set(["a", "b"]))).toEqual({
      kind: "limit",
      busy: ["a", "b"],
    });
  });
});
