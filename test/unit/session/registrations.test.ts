/**
 * The server's registrations, bounded (src/session/registrations.ts, SPEC §8): a flood is
 * measured once per registration, refused whole past a bound with the kept ones intact,
 * and session_status names a bounded sample of the watcher patterns.
 */
import { describe, expect, test } from "bun:test";
import type { Registration } from "vscode-languageserver-protocol";
import {
  boundedWatchers,
  REGISTRATION_LIMITS,
  RegistrationBook,
} from "../../../src/session/registrations.ts";

function watcherReg(id: string, n = 1, glob = "**/*.rs"): Registration {
  return {
    id,
    method: "workspace/didChangeWatchedFiles",
    registerOptions: { watchers: Array.from({ length: n }, () => ({ globPattern: glob })) },
  };
}

describe("RegistrationBook", () => {
  test("a flood of 20,000: the first `count` kept, the rest refused, in linear time", () => {
    const map = new Map<string, Registration>();
    const book = new RegistrationBook(map);
    const t0 = performance.now();
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      if (book.add([{ id: `r${i}`, method: "textDocument/diagnostic" }]) !== undefined) refused++;
    }
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(map.size).toBe(REGISTRATION_LIMITS.count);
    expect(refused).toBe(20_000 - REGISTRATION_LIMITS.count);
    expect(book.refused).toBe(refused);
    // room again once one is removed; the same id again replaces, never counts twice
    book.remove("r0");
    expect(book.add([{ id: "again", method: "m" }])).toBeUndefined();
    expect(book.add([{ id: "again", method: "m" }])).toBeUndefined();
    expect(map.size).toBe(REGISTRATION_LIMITS.count);
  });

  test("file watchers are counted across registrations; a request over the bound is refused whole", () => {
    const map = new Map<string, Registration>();
    const book = new RegistrationBook(map);
    expect(book.add([watcherReg("a", REGISTRATION_LIMITS.watchers - 1)])).toBeUndefined();
    const why = book.add([{ id: "b", method: "m" }, watcherReg("c", 2)]);
    expect(why).toContain(`${REGISTRATION_LIMITS.watchers} file watchers`);
    expect([...map.keys()]).toEqual(["a"]);
    // replacing "a" with fewer watchers frees room
    expect(book.add([watcherReg("a", 1), watcherReg("c", 2)])).toBeUndefined();
  });

  test("registration options are bounded in size", () => {
    const book = new RegistrationBook(new Map());
    const big = "x".repeat(REGISTRATION_LIMITS.chars);
    expect(book.add([watcherReg("big", 1, big)])).toContain("characters of registration options");
  });
});

test("session_status names 20 patterns of at most 256 characters, and counts them all", () => {
  const watchers = Array.from({ length: 50 }, (_, i) => `${"p".repeat(1000)}${i}`);
  const out = boundedWatchers({ watchers, watchers_outside_root: [], generation: 3 });
  expect(out.watchers).toHaveLength(20);
  expect(out.watchers[0]).toBe(`${"p".repeat(256)}…`);
  expect(out.watchers_total).toBe(50);
  expect(out.watchers_outside_root_total).toBe(0);
  expect(out.generation).toBe(3);
});
