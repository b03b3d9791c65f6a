import { expect, test } from "bun:test";
import { RAL } from "vscode-languageserver-protocol/node";
import { installMicrotaskRuntime } from "../../../src/lsp/runtime.ts";

test("the installed layer runs setImmediate callbacks as microtasks, in order; dispose cancels", async () => {
  const before = RAL();
  try {
    installMicrotaskRuntime();
    const seen: string[] = [];
    const timer = RAL().timer;
    timer.setImmediate(() => seen.push("first"));
    const cancelled = timer.setImmediate(() => seen.push("cancelled"));
    timer.setImmediate(() => seen.push("second"));
    cancelled.dispose();
    await Promise.resolve(); // one microtask turn later, before any event-loop turn
    expect(seen).toEqual(["first", "second"]);
    // everything else is the Node layer's
    expect(RAL().timer.setTimeout).toBe(before.timer.setTimeout);
  } finally {
    RAL.install(before);
  }
});
