/**
 * vscode-jsonrpc's runtime layer (`RAL`, its public hook for adapting the library to a
 * runtime), as installed for Node, with one change for the bridge: `timer.setImmediate`
 * runs its callback as a microtask instead of on a later turn of the event loop.
 *
 * The library defers three steps of every message with it — the writer's and the reader's
 * one-at-a-time semaphores, and the connection's queue of received messages — so each
 * request waited one loop turn before its bytes were written, and each answer two more
 * before it reached the caller: on Bun each turn polls I/O and runs timers, a measured
 * share of a call's critical path (docs/PERFORMANCE.md). As microtasks the same steps run
 * in the same order (every queue stays first in, first out) right after the code that
 * scheduled them. What changes: a burst of received messages is handled before the loop
 * polls again, so a `$/cancelRequest` sent after a server-to-client request in a later
 * chunk arrives once that request was handled — the bridge answers those requests at once
 * anyway (server-requests.ts).
 */
import { RAL } from "vscode-languageserver-protocol/node";

type Runtime = ReturnType<typeof RAL>;

function microtaskTimer(timer: Runtime["timer"]): Runtime["timer"] {
  return {
    setTimeout: timer.setTimeout,
    setInterval: timer.setInterval,
    setImmediate(callback: (...args: unknown[]) => void, ...args: unknown[]) {
      let disposed = false;
      queueMicrotask(() => {
        if (!disposed) callback(...args);
      });
      return {
        dispose: () => {
          disposed = true;
        },
      };
    },
  };
}

let installed = false;

/** Install the bridge's runtime layer once (importing the Node entry installed Node's). */
export function installRuntime(): void {
  if (installed) return;
  installed = true;
  const node = RAL();
  RAL.install({ ...node, timer: microtaskTimer(node.timer) });
}
