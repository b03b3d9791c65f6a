/**
 * The workspace watcher in unit tests: a watcher on a temp tree with one subscriber, and
 * `poll()` returning what the drain delivered as `[kind, workspace-relative path]` pairs.
 * Every watcher made here is closed by `closeWatchers()` (afterEach).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FileChange } from "../../src/workspace/file-events.ts";
import {
  type SubscriberHints,
  type Subscription,
  WorkspaceWatcher,
} from "../../src/workspace/watch.ts";
import { InotifyHub } from "../../src/workspace/watch-hub.ts";

const open: Subscription[] = [];

export function closeWatchers(): void {
  for (const sub of open.splice(0)) sub.close();
}

export function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A watcher on `root` (interest: everything) and a function returning what poll() delivered. */
export function watch(
  root: string,
  maxWatches = 1000,
  interest: (dir: string) => boolean = () => true,
  hints: SubscriberHints = {},
) {
  const watcher = new WorkspaceWatcher(root, maxWatches, new InotifyHub());
  let got: FileChange[] = [];
  const sub = watcher.subscribe(interest, (changes) => got.push(...changes), hints);
  open.push(sub);
  const poll = (): [string, string][] => {
    watcher.poll();
    const out = got.map((c): [string, string] => [c.kind, c.abs.slice(root.length + 1)]);
    got = [];
    return out;
  };
  return { watcher, sub, poll };
}

/** A subscription kept open until closeWatchers() (a second subscriber). */
export function keep(sub: Subscription): Subscription {
  open.push(sub);
  return sub;
}
