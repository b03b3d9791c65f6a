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
    tier: "source",
    rank: 0,
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
    expect(decideAdmission("c", views, 2)).toEqual({ kind: "limit", busy: ["a", "b"], held: [] });
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
    expect(decideAdmission("c", views, 2)).toEqual({ kind: "limit", busy: ["a", "b"], held: [] });
  });

  test("a victim already tried for this admission is not chosen twice", () => {
    const views = [view("a", { lastUsed: 1 }), view("b", { lastUsed: 2 })];
    expect(decideAdmission("c", views, 2, new Set(["a"]))).toEqual({ kind: "evict", victim: "b" });
    expect(decideAdmission("c", views, 2, new Set(["a", "b"]))).toEqual({
      kind: "limit",
      busy: ["a", "b"],
      held: [],
    });
  });

  test("data-file servers go first, then incidental, then source, main last; LRU within a tier", () => {
    const views = [
      view("main", { tier: "main", lastUsed: 1 }),
      view("src", { tier: "source", lastUsed: 2 }),
      view("inc", { tier: "incidental", lastUsed: 3 }),
      view("json", { tier: "data", lastUsed: 9 }),
      view("yaml", { tier: "data", lastUsed: 8 }),
    ];
    const order: string[] = [];
    const tried = new Set<string>();
    for (;;) {
      const d = decideAdmission("new", views, 5, tried);
      if (d.kind !== "evict") break;
      order.push(d.victim);
      tried.add(d.victim);
    }
    expect(order).toEqual(["yaml", "json", "inc", "src", "main"]);
  });

  test("a data-file server never evicts a main server: SessionLimit names it held", () => {
    const views = [
      view("gopls", { tier: "main", lastUsed: 1 }),
      view("json", { tier: "data", occupies: false }),
    ];
    expect(decideAdmission("json", views, 1)).toEqual({
      kind: "limit",
      busy: [],
      held: ["gopls"],
    });
    // another source server may (the call asked for it); so may anyone once it is stopping
    expect(decideAdmission("py", [...views, view("py", { occupies: false })], 1)).toEqual({
      kind: "evict",
      victim: "gopls",
    });
    const stopping = [
      view("gopls", { tier: "main", stopping: true }),
      views[1] as SlotView<string>,
    ];
    expect(decideAdmission("json", stopping, 1)).toEqual({ kind: "evict", victim: "gopls" });
  });

  test("a warm-up evicts only sessions ranked after its own", () => {
    const views = [
      view("gopls", { tier: "main", rank: 0, lastUsed: 5 }),
      view("bash", { tier: "incidental", rank: 1, lastUsed: 1 }),
      view("json", { tier: "data", rank: 2, occupies: false }),
      view("yaml", { tier: "data", rank: 3, lastUsed: 2 }),
    ];
    // gopls' warm-up evicts yaml first (lowest tier), then bash
    expect(decideAdmission("gopls", views, 2, new Set(), "warmup")).toEqual({
      kind: "evict",
      victim: "yaml",
    });
    // json ranks before yaml, after gopls and bash
    expect(decideAdmission("json", views, 3, new Set(), "warmup")).toEqual({
      kind: "evict",
      victim: "yaml",
    });
    expect(decideAdmission("json", views, 3, new Set(["yaml"]), "warmup")).toEqual({
      kind: "limit",
      busy: ["yaml"],
      held: ["gopls", "bash"],
    });
    // a call for the same server is no warm-up: the incidental bash may go
    expect(decideAdmission("json", views, 3, new Set(["yaml"]), "call")).toEqual({
      kind: "evict",
      victim: "bash",
    });
  });
});
