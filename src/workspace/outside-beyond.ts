/**
 * What the dependencies outside the root name in turn (SPEC §5.3): a header in `../common`
 * that includes `../vendor/x.h`, a base tsconfig that extends one further up. Each outside
 * file, and each file of an outside tree, is read once for the paths that leave it —
 * again when its watcher reports it changed — and what they lead to is a dependency too,
 * read the same way until nothing new is found. Bounded per pass (BEYOND_MAX_FILES,
 * BEYOND_MAX_BYTES): a dependency not read whole is `incomplete`, and answers name it.
 */
import { type Dirent, readdirSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import type { FileChange } from "./file-events.ts";
import type { OutsideDependency } from "./outside-deps.ts";
import { configurationPaths, escapingSourcePaths } from "./outside-paths.ts";
import { type ResolveContext, resolveOutside } from "./outside-resolve.ts";
import { CONFIGURATION } from "./outside-survey.ts";
import { atOrBelow } from "./paths.ts";
import { directoryScope } from "./watch-scope.ts";

/** Files looked at in the outside dependencies in one pass, at most. */
export const BEYOND_MAX_FILES = 5000;
/** Bytes read in the outside dependencies in one pass, at most (files read before are free). */
export const BEYOND_MAX_BYTES = 16 * 1024 * 1024;
const MAX_DEPTH = 32;

export interface BeyondSource extends ResolveContext {
  /** extensions (no dot) of the files the workspace's servers read as sources */
  sourceExtensions: ReadonlySet<string>;
  /** an outside file's text (bounded), or undefined */
  read: (abs: string) => string | undefined;
}

interface Budget {
  files: number;
  bytes: number;
}

export class OutsideBeyond {
  /** each outside file read: the dependencies it names */
  private readonly files = new Map<string, OutsideDependency[]>();
  /** dependencies read whole: the files each holds */
  private readonly scanned = new Map<string, Set<string>>();
  /** the dependencies the last pass could not read whole */
  incomplete: string[] = [];

  constructor(private readonly src: BeyondSource) {}

  /** What `deps` lead to further, transitively, each path once (not those in `deps`). */
  further(deps: readonly OutsideDependency[], max: number): OutsideDependency[] {
    const budget: Budget = { files: BEYOND_MAX_FILES, bytes: BEYOND_MAX_BYTES };
    const known = new Set(deps.map((d) => d.path));
    const queue = [...deps];
    const out: OutsideDependency[] = [];
    this.incomplete = [];
    for (let dep = queue.shift(); dep !== undefined; dep = queue.shift()) {
      // a directory holding the root is the root's watcher's (and is named, not watched)
      if (dep.kind === "entries" || dep.ownRead || atOrBelow(dep.path, this.src.rootReal)) continue;
      const held = this.scanned.get(dep.path) ?? this.scan(dep, budget);
      if (held === null) {
        this.incomplete.push(dep.path);
        continue;
      }
      for (const abs of held) {
        for (const next of this.files.get(abs) ?? []) {
          if (known.has(next.path) || known.size >= max) continue;
          known.add(next.path);
          out.push(next);
          queue.push(next);
        }
      }
    }
    return out;
  }

  /** Changes outside: a file read before, or a new one in a tree read whole, is read again. */
  note(changes: readonly FileChange[]): void {
    for (const c of changes) this.relook(c.abs, c.kind === "deleted");
  }

  /** A path awaited where it would appear changed: what named it is read again. */
  awaited(path: string): void {
    for (const [abs, deps] of [...this.files]) {
      if (deps.some((d) => d.path === path)) this.relook(abs, false);
    }
  }

  private relook(abs: string, gone: boolean): void {
    this.files.delete(abs);
    for (const [path, held] of this.scanned) {
      if (!(abs === path || atOrBelow(path, abs))) continue;
      held.delete(abs);
      if (gone) continue;
      const depth = relative(path, dirname(abs)).split("/").filter(Boolean).length;
      const budget = { files: 1, bytes: BEYOND_MAX_BYTES };
      const within = abs === path ? null : path;
      if (this.look(abs, depth, budget, within, abs === path)) held.add(abs);
    }
  }

  /** A dependency's files read for their paths out: the files, or null past the budget. */
  private scan(dep: OutsideDependency, budget: Budget): Set<string> | null {
    const held = new Set<string>();
    if (dep.kind === "file") {
      if (this.look(dep.path, 0, budget, null, true)) held.add(dep.path);
    } else {
      const dirs = [{ dir: dep.path, depth: 0 }];
      for (let next = dirs.pop(); next !== undefined; next = dirs.pop()) {
        let entries: Dirent[];
        try {
          entries = readdirSync(next.dir, { withFileTypes: true });
        } catch {
          continue;
        }
        for (const e of entries) {
          const abs = join(next.dir, e.name);
          if (e.isDirectory()) {
            const scope = directoryScope(abs);
            if (scope !== "excluded" && scope !== "package" && next.depth < MAX_DEPTH) {
              dirs.push({ dir: abs, depth: next.depth + 1 });
            }
          } else if (e.isFile() && this.look(abs, next.depth, budget, dep.path)) {
            held.add(abs);
          }
          if (budget.files <= 0 || budget.bytes <= 0) return null;
        }
      }
    }
    this.scanned.set(dep.path, held);
    return held;
  }

  /**
   * One outside file: the dependencies it names beyond its own directory (a configuration:
   * any relative path too, `./other.json`). `depth`: how far below its dependency's top
   * it lies, which a source's `..` must climb past to leave it; what lies `within` its tree
   * is watched already. Whether it was read.
   */
  private look(
    abs: string,
    depth: number,
    budget: Budget,
    within: string | null,
    named = false,
  ): boolean {
    const name = basename(abs);
    const config = CONFIGURATION.test(name);
    if (!named && !config && !this.src.sourceExtensions.has(extname(name).slice(1))) return false;
    budget.files--;
    const text = this.src.read(abs);
    if (text === undefined) return false;
    budget.bytes -= text.length;
    const source = `${abs} (outside the root)`;
    const dir = dirname(abs);
    const deps: OutsideDependency[] = [];
    const paths = config ? configurationPaths(text, true) : escapingSourcePaths(text, depth);
    for (const p of paths) {
      const dep = resolveOutside(this.src, resolve(dir, p), source, !config);
      if (dep !== null && !(within !== null && atOrBelow(within, dep.path))) deps.push(dep);
    }
    this.files.set(abs, deps);
    return true;
  }
}
