/**
 * vscode-jsonrpc's runtime layer (`RAL`, the library's public hook for adapting it to a
 * runtime) as installed for Node, with `timer.setImmediate` running its callback as a
 * microtask instead of on a later turn of the event loop.
 *
 * The library defers three steps of every message with it — the writer's and reader's
 * one-at-a-time semaphores and the connection's queue of received messages — so a request
 * waited a turn before its bytes were written and an answer two more before it reached the
 * caller; a burst of received messages was handled one per turn while reading went on, so
 * a flood queued up in memory (docs/PERFORMANCE.md). As microtasks the same steps run in
 * the same order (every queue stays first in, first out). The one visible change: a
 * `$/cancelRequest` in a later chunk arrives after the request it cancels was handled —
 * the bridge answers server requests at once anyway (session/server-requests.ts).
 *
 * Process-wide by nature (the library keeps one layer): the bridge's entry installs it once.
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

/** Install the microtask runtime layer over the Node one (importing the Node entry installed it). */
export function installMicrotaskRuntime(): void {
  const node = RAL();
  RAL.install({ ...node, timer: microtaskTimer(node.timer) });
}
