import { beforeEach, describe, expect, test } from "bun:test";
import { type HandleEntry, HandleStore } from "../../../src/gate/handles.ts";
import { LSP_LINES } from "../../../src/text/line-model.ts";
import { edit } from "../../support/normalize-context.ts";

const SESSION = { sessionKey: "ws/clangd", sessionEpoch: 1 };

function entry(title = "Add #include <stdio.h>"): HandleEntry {
  return {
    ...SESSION,
    title,
    encoding: "utf-16",
    lines: [LSP_LINES],
    vouch: { mark: 0, untracked: null, unloaded: [] },
    files: [{ abs: "/ws/a.c", edits: [edit(0, 0, 0, 0, "#include <stdio.h>\n")] }],
    targets: [{ abs: "/ws/a.c", sha256: "0".repeat(64) }],
  };
}

describe("HandleStore (SPEC §7.3)", () => {
  let store: HandleStore;
  beforeEach(() => {
    store = new HandleStore();
  });

  test("issues distinct opaque handles: ca_ + 43 base64url characters (32 bytes)", () => {
    const handles = new Set<string>();
    for (let i = 0; i < 200; i++) handles.add(store.issue(entry()));
    expect(handles.size).toBe(200);
    for (const h of handles) {
      expect(h).toMatch(/^ca_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(h.slice(3), "base64url").length).toBe(32);
      // opaque: nothing of the entry leaks into the handle
      expect(h).not.toContain("stdio");
    }
  });

  test("a fresh handle is valid in its own session and carries its entry", () => {
    const h = store.issue(entry());
    const seen = store.inspect(h, SESSION);
    expect(seen.state).toBe("valid");
    expect(seen.entry).toEqual(entry());
    // inspecting does not consume
    expect(store.inspect(h, SESSION).state).toBe("valid");
  });

  test("another session or another epoch of the same session is foreign_session", () => {
    const h = store.issue(entry());
    expect(store.inspect(h, { sessionKey: "ws/pyright", sessionEpoch: 1 }).state).toBe(
      "foreign_session",
    );
    expect(store.inspect(h, { sessionKey: "ws/clangd", sessionEpoch: 2 }).state).toBe(
      "foreign_session",
    );
    expect(store.inspect(h, null).state).toBe("foreign_session");
  });

  test("consume returns the entry once; afterwards the handle is used", () => {
    const h = store.issue(entry());
    expect(store.consume(h)).toEqual(entry());
    expect(store.consume(h)).toBeUndefined();
    const seen = store.inspect(h, SESSION);
    expect(seen.state).toBe("used");
    expect(seen.entry).toBeUndefined();
    // used wins over foreign_session: the handle is spent either way
    expect(store.inspect(h, null).state).toBe("used");
  });

  test("a handle found once inspects as it is now: used since, or judged for another session", () => {
    const h = store.issue(entry());
    const ref = store.find(h);
    expect(ref.entry).toEqual(entry());
    expect(ref.inspect(SESSION).state).toBe("valid");
    expect(ref.inspect({ sessionKey: SESSION.sessionKey, sessionEpoch: 9 }).state).toBe(
      "foreign_session",
    );
    store.consume(h);
    expect(ref.inspect(SESSION)).toEqual({ state: "used" });
    const forged = store.find(`ca_${"B".repeat(43)}`);
    expect(forged.entry).toBeUndefined();
    expect(forged.inspect(SESSION)).toEqual({ state: "unknown" });
  });

  test("two concurrent consumers: exactly one gets the entry", async () => {
    const h = store.issue(entry());
    const results = await Promise.all([
      Promise.resolve().then(() => store.consume(h)),
      Promise.resolve().then(() => store.consume(h)),
    ]);
    expect(results.filter((r) => r !== undefined).length).toBe(1);
  });

  test("forged, malformed and never-issued handles are unknown and cannot be consumed", () => {
    const real = store.issue(entry());
    const flipped = real.slice(0, -1) + (real.endsWith("A") ? "B" : "A");
    const candidates: unknown[] = [
      flipped,
      `ca_${"A".repeat(43)}`,
      "",
      "ca_",
      real.slice(3),
      `xx_${real.slice(3)}`,
      `${real}=`,
      `${real}A`,
      real.slice(0, -1),
      ` ${real}`,
      real.toUpperCase() === real ? real.toLowerCase() : real.toUpperCase(),
      42,
      null,
    ];
    for (const h of candidates) {
      expect(store.inspect(h as string, SESSION).state).toBe("unknown");
      expect(store.consume(h as string)).toBeUndefined();
    }
    // the real one survived all that
    expect(store.inspect(real, SESSION).state).toBe("valid");
  });

  test("beyond capacity the oldest handles are evicted and become unknown", () => {
    const store = new HandleStore(3);
    const hs = [0, 1, 2, 3, 4].map((i) => store.issue(entry(`action ${i}`)));
    expect(store.size()).toBe(3);
    expect(store.inspect(hs[0]!, SESSION).state).toBe("unknown");
    expect(store.inspect(hs[1]!, SESSION).state).toBe("unknown");
    for (const i of [2, 3, 4]) {
      const seen = store.inspect(hs[i]!, SESSION);
      expect(seen.state).toBe("valid");
      expect(seen.entry?.title).toBe(`action ${i}`);
    }
  });

  test("default capacity is 1024", () => {
    const first = store.issue(entry());
    for (let i = 0; i < 1023; i++) store.issue(entry());
    expect(store.inspect(first, SESSION).state).toBe("valid");
    store.issue(entry());
    expect(store.size()).toBe(1024);
    expect(store.inspect(first, SESSION).state).toBe("unknown");
  });

  test("beyond the size budget the oldest handles are forgotten; a used one weighs nothing", () => {
    const heavy = (title: string, chars: number): HandleEntry => {
      const e = entry(title);
      (e.files[0]?.edits[0] as { newText: string }).newText = "x".repeat(chars);
      return e;
    };
    const store = new HandleStore(100, 10_000);
    const a = store.issue(heavy("a", 4000));
    const b = store.issue(heavy("b", 4000));
    store.consume(b);
    const c = store.issue(heavy("c", 4000));
    expect(store.inspect(a, SESSION).state).toBe("valid"); // b's weight was freed when used
    store.issue(heavy("d", 4000));
    expect(store.inspect(a, SESSION).state).toBe("unknown");
    expect(store.inspect(c, SESSION).state).toBe("valid");
    // the newest stays, however heavy
    const huge = store.issue(heavy("huge", 50_000));
    expect(store.inspect(huge, SESSION).state).toBe("valid");
    expect(store.inspect(c, SESSION).state).toBe("unknown");
  });

  test("the stored entry is a private copy of what was issued", () => {
    const original = entry();
    const h = store.issue(original);
    original.files[0]!.edits[0]!.newText = 'system("rm -rf /");';
    original.targets.length = 0;
    const consumed = store.consume(h);
    expect(consumed?.files[0]?.edits[0]?.newText).toBe("#include <stdio.h>\n");
    expect(consumed?.targets.length).toBe(1);
  });

  test("the store's memory holds no handle in clear", () => {
    const h = store.issue(entry());
    const dump = Bun.inspect(store, { depth: 10 });
    expect(dump).toContain("stdio"); // the dump does show the store's contents
    expect(dump).not.toContain(h.slice(3));
  });

  test("rejects a capacity that is not a positive integer", () => {
    expect(() => new HandleStore(0)).toThrow(RangeError);
    expect(() => new HandleStore(-1)).toThrow(RangeError);
  });
});
