/**
 * The ways out of the root that no configuration key names (SPEC §5.3 "dependencies outside
 * the root"): a walk of the root finds every link whose target lies outside it, every
 * configuration file's paths (outside-paths.ts: any key, any flag) and every source's
 * quoted relative paths that climb out. What they lead to, where it exists, is a dependency
 * the server may read, watched like those outside-deps.ts names. Each file's findings are
 * kept while its identity holds, so a walk after the first reads only what changed, and a
 * change the watcher reports updates that file alone. Bounded: past SURVEY_MAX_FILES files
 * or SURVEY_MAX_BYTES read, the survey says it is incomplete.
 */
import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { FileChange } from "./file-events.ts";
import type { OutsideDependency } from "./outside-deps.ts";
import { configurationPaths, escapingSourcePaths } from "./outside-paths.ts";
import { atOrBelow } from "./paths.ts";
import { directoryScope } from "./watch-scope.ts";

/** Files looked at in one walk, at most. */
export const SURVEY_MAX_FILES = 50_000;
/** Bytes of sources and configuration read in one walk, at most (unchanged files are free). */
export const SURVEY_MAX_BYTES = 64 * 1024 * 1024;
/** A larger file is no source anyone includes by a relative path. */
const MAX_SURVEYED_FILE = 1024 * 1024;
const MAX_DEPTH = 64;

/**
 * Files servers read as configuration, by name. The compile database is left to
 * outside-deps.ts: its paths are relative to each entry's `directory`.
 */
const CONFIGURATION =
  /^(?:tsconfig(?:\..*)?\.json|jsconfig\.json|package\.json|pyrightconfig\.json|pyproject\.toml|setup\.cfg|go\.mod|go\.work|Cargo\.toml|config\.toml|compile_flags\.txt|\.clangd|\.ccls)$/;

interface Found {
  /** identity when read: size, mtime, inode */
  key: string;
  deps: OutsideDependency[];
}

export interface SurveySource {
  /** the root's real path */
  rootReal: string;
  /** extensions (no dot) of the files the workspace's servers read as sources */
  sourceExtensions: ReadonlySet<string>;
  /** a file's text read beneath the root, or undefined */
  read: (abs: string) => string | undefined;
  /** a path is the host's (its system directories), not a dependency */
  isSystem: (abs: string) => boolean;
}

export class OutsideSurvey {
  private readonly files = new Map<string, Found>();
  private readonly links = new Map<string, OutsideDependency>();
  private bytes = 0;
  private looked = 0;
  /** the last walk stopped at a bound: some ways out may be unknown */
  incomplete = false;

  constructor(private readonly src: SurveySource) {}

  /** Walk the root again; files whose identity holds are not read again. */
  walk(): void {
    this.bytes = 0;
    this.looked = 0;
    this.incomplete = false;
    const seen = new Set<string>();
    this.walkDir(this.src.rootReal, 0, seen);
    for (const abs of [...this.files.keys()]) if (!seen.has(abs)) this.files.delete(abs);
    for (const abs of [...this.links.keys()]) if (!seen.has(abs)) this.links.delete(abs);
  }

  /** Changes below the root: each file or link named is looked at again. */
  note(changes: readonly FileChange[]): void {
    for (const c of changes) {
      if (!atOrBelow(this.src.rootReal, c.abs) || c.abs === this.src.rootReal) continue;
      this.files.delete(c.abs);
      this.links.delete(c.abs);
      if (c.kind !== "deleted") this.look(c.abs, undefined);
    }
  }

  /** Everything found, each path once. */
  dependencies(): OutsideDependency[] {
    const out: OutsideDependency[] = [...this.links.values()];
    for (const f of this.files.values()) out.push(...f.deps);
    return out;
  }

  private walkDir(dir: string, depth: number, seen: Set<string>): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable: what it holds is not the survey's to know
    }
    for (const e of entries) {
      if (this.looked >= SURVEY_MAX_FILES) {
        this.incomplete = true;
        return;
      }
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        const scope = directoryScope(abs);
        if (scope === "excluded" || scope === "package" || depth >= MAX_DEPTH) continue;
        this.walkDir(abs, depth + 1, seen);
      } else if (e.isSymbolicLink() || e.isFile()) {
        seen.add(abs);
        this.look(abs, e.isSymbolicLink());
      }
    }
  }

  /** One entry: a link out of the root, or a file whose paths may lead out. */
  private look(abs: string, isLink: boolean | undefined): void {
    const name = basename(abs);
    const config = CONFIGURATION.test(name);
    // a walk knows each entry's type: a file neither a source nor configuration costs nothing
    if (isLink === false && !config && !this.src.sourceExtensions.has(extname(name).slice(1))) {
      return;
    }
    this.looked++;
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(abs);
    } catch {
      return;
    }
    if (isLink ?? stat.isSymbolicLink()) {
      const dep = this.resolved(abs, `link ${this.relative(abs)}`);
      if (dep !== null) this.links.set(abs, dep);
      return;
    }
    if (!stat.isFile() || (!config && !this.src.sourceExtensions.has(extname(name).slice(1)))) {
      return;
    }
    const key = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (this.files.get(abs)?.key === key) return;
    if (stat.size > MAX_SURVEYED_FILE) return;
    if (this.bytes + stat.size > SURVEY_MAX_BYTES) {
      this.incomplete = true;
      return;
    }
    this.bytes += stat.size;
    const text = this.src.read(abs);
    if (text === undefined) return;
    const dir = dirname(abs);
    const rel = this.relative(abs);
    const paths = config
      ? configurationPaths(text)
      : escapingSourcePaths(text, rel.split("/").length - 1);
    const deps: OutsideDependency[] = [];
    for (const p of paths) {
      const dep = this.resolved(resolve(dir, p), rel, !config);
      if (dep !== null) deps.push(dep);
    }
    this.files.set(abs, { key, deps });
  }

  /**
   * What `path` leads to when that exists outside the root and is not the host's: a
   * directory with everything below it, or a file; in a source (`module`), a path with no
   * file at its end (a module named without its extension) leads to the directory it would
   * lie in. The file system's root is no one's dependency.
   */
  private resolved(path: string, source: string, module = false): OutsideDependency | null {
    for (const candidate of module ? [path, dirname(path)] : [path]) {
      let real: string;
      try {
        real = realpathSync(candidate);
      } catch {
        continue;
      }
      if (real === "/" || atOrBelow(this.src.rootReal, real) || this.src.isSystem(real)) {
        return null;
      }
      try {
        const dir = statSync(real).isDirectory();
        if (candidate === path) return { path: real, kind: dir ? "tree" : "file", source };
        return dir ? { path: real, kind: "entries", source } : null;
      } catch {
        return null;
      }
    }
    return null;
  }

  private relative(abs: string): string {
    return abs.slice(this.src.rootReal.length + 1);
  }
}
