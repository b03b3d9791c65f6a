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
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { FileChange } from "./file-events.ts";
import type { OutsideDependency } from "./outside-deps.ts";
import { configurationPaths, escapingSourcePaths } from "./outside-paths.ts";
import { resolveOutside } from "./outside-resolve.ts";
import { atOrBelow } from "./paths.ts";
import { directoryScope } from "./watch-scope.ts";

/** Files looked at in one walk, at most. */
export const SURVEY_MAX_FILES = 50_000;
/** Bytes of sources and configuration read in one walk, at most (unchanged files are free). */
export const SURVEY_MAX_BYTES = 64 * 1024 * 1024;
/** A larger file is no source anyone includes by a relative path. */
export const MAX_SURVEYED_FILE = 1024 * 1024;
const MAX_DEPTH = 64;
/** Directory entries looked at between two turns of the event loop. */
const WALK_SLICE = 2000;

/**
 * Files servers read as configuration, by name (a compiler's response files `@x.rsp`
 * too). The compile database is left to outside-deps.ts: its paths are relative to each
 * entry's `directory`.
 */
export const CONFIGURATION =
  /^(?:tsconfig(?:\..*)?\.json|jsconfig\.json|package\.json|pyrightconfig\.json|pyproject\.toml|setup\.cfg|go\.mod|go\.work|Cargo\.toml|config\.toml|compile_flags\.txt|\.clangd|\.ccls|.*\.rsp)$/;

/**
 * The tools' own configuration servers and the programs they run search upward for
 * (clang-tidy and clang-format inside clangd, rustfmt and clippy behind rust-analyzer,
 * formatters and linters beside a language server): named by what reads them, not by path.
 */
const TOOL_CONFIGURATION =
  /^(?:\.clang-tidy|\.clang-format|_clang-format|\.editorconfig|\.?rustfmt\.toml|\.?clippy\.toml|rust-toolchain(?:\.toml)?|\.python-version|mypy\.ini|\.mypy\.ini|\.pylintrc|\.flake8|tox\.ini|\.?ruff\.toml|\.prettierrc.*|\.eslintrc.*|biome\.jsonc?|deno\.jsonc?|\.npmrc|\.yarnrc(?:\.yml)?|\.luarc\.jsonc?)$/;

/** What servers look for above the root: configuration files, and packages installed there. */
const ABOVE_THE_ROOT = new RegExp(
  `${CONFIGURATION.source}|${TOOL_CONFIGURATION.source}|^node_modules$`,
);

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
  /** a configuration file's text above the root (a `go.work`, a `.clangd`), or undefined */
  readAbove: (abs: string) => string | undefined;
  /** a path is the host's (its system directories), not a dependency */
  isSystem: (abs: string) => boolean;
}

export class OutsideSurvey {
  private readonly files = new Map<string, Found>();
  private readonly links = new Map<string, OutsideDependency>();
  private above: { paths: OutsideDependency[]; entries: OutsideDependency[] } = {
    paths: [],
    entries: [],
  };
  private bytes = 0;
  private looked = 0;
  /** the last walk stopped at a bound: some ways out may be unknown */
  incomplete = false;

  constructor(private readonly src: SurveySource) {}

  private walking: Promise<void> | null = null;

  /**
   * Walk the root again, a turn of the event loop every WALK_SLICE entries (a session's
   * first answer does not wait for it); files whose identity holds are not read again. A
   * walk asked for while one runs is that one.
   */
  walk(): Promise<void> {
    this.walking ??= this.walkAll().finally(() => {
      this.walking = null;
    });
    return this.walking;
  }

  private async walkAll(): Promise<void> {
    // what lies above the root first, before the first turn: a few directories and files
    this.above = this.configurationAbove();
    this.bytes = 0;
    this.looked = 0;
    this.incomplete = false;
    const seen = new Set<string>();
    const dirs: { dir: string; depth: number }[] = [{ dir: this.src.rootReal, depth: 0 }];
    let entries = 0;
    for (let next = dirs.pop(); next !== undefined; next = dirs.pop()) {
      entries += this.walkDir(next.dir, next.depth, seen, dirs);
      if (entries >= WALK_SLICE) {
        entries = 0;
        await new Promise((r) => setImmediate(r));
      }
    }
    for (const abs of [...this.files.keys()]) if (!seen.has(abs)) this.files.delete(abs);
    for (const abs of [...this.links.keys()]) if (!seen.has(abs)) this.links.delete(abs);
  }

  /**
   * What servers search above the root (a `go.work` using a module beside the root, a
   * parent's `.clangd`, packages hoisted into a parent's node_modules): each ancestor's
   * configuration files and node_modules as they come and go (a change restarts the
   * session, outside-watch.ts), the packages in such a node_modules, and the paths those
   * files name, each read as it is when the walk runs.
   */
  private configurationAbove(): { paths: OutsideDependency[]; entries: OutsideDependency[] } {
    const paths: OutsideDependency[] = [];
    const entries: OutsideDependency[] = [];
    const source = "configuration above the root";
    for (let d = dirname(this.src.rootReal); d !== dirname(d); d = dirname(d)) {
      entries.push({ path: d, kind: "entries", source, names: ABOVE_THE_ROOT });
      let names: string[];
      try {
        names = readdirSync(d);
      } catch {
        continue;
      }
      if (names.includes("node_modules")) {
        entries.push({ path: join(d, "node_modules"), kind: "entries", source });
      }
      for (const name of names.filter((n) => CONFIGURATION.test(n))) {
        const abs = join(d, name);
        const text = this.src.readAbove(abs);
        if (text === undefined) continue;
        for (const p of configurationPaths(text, true)) {
          const dep = resolveOutside(this.src, resolve(d, p), abs, false, false);
          if (dep !== null) paths.push(dep);
        }
      }
    }
    return { paths, entries };
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

  /** A path awaited where it would appear changed: the files and links naming it, again. */
  awaited(path: string): void {
    for (const [abs, found] of [...this.files]) {
      if (!found.deps.some((d) => d.path === path)) continue;
      this.files.delete(abs);
      this.look(abs, false);
    }
    for (const [abs, dep] of [...this.links]) {
      if (dep.path !== path) continue;
      this.links.delete(abs);
      this.look(abs, true);
    }
  }

  /** The root's ancestors' entries and node_modules, watched for what comes and goes there. */
  ancestors(): OutsideDependency[] {
    return this.above.entries;
  }

  /** Everything found, each path once. */
  dependencies(): OutsideDependency[] {
    const out: OutsideDependency[] = [...this.links.values(), ...this.above.paths];
    for (const f of this.files.values()) out.push(...f.deps);
    return out;
  }

  /** One directory's entries looked at, its subdirectories queued; how many entries. */
  private walkDir(
    dir: string,
    depth: number,
    seen: Set<string>,
    queue: { dir: string; depth: number }[],
  ): number {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return 0; // unreadable: what it holds is not the survey's to know
    }
    for (const e of entries) {
      if (this.looked >= SURVEY_MAX_FILES) {
        this.incomplete = true;
        queue.length = 0;
        return entries.length;
      }
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        const scope = directoryScope(abs);
        if (scope === "excluded" || scope === "package" || depth >= MAX_DEPTH) continue;
        queue.push({ dir: abs, depth: depth + 1 });
      } else if (e.isSymbolicLink() || e.isFile()) {
        seen.add(abs);
        this.look(abs, e.isSymbolicLink());
      }
    }
    return entries.length;
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
      const dep = resolveOutside(this.src, abs, `link ${this.relative(abs)}`);
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
      // a configuration's relative path may be read against the directory a tool runs in
      // (a nested .clangd's -I: the compile directory), the root for the most part
      const bases =
        config && !p.startsWith("/") && dir !== this.src.rootReal
          ? [dir, this.src.rootReal]
          : [dir];
      for (const base of bases) {
        const dep = resolveOutside(this.src, resolve(base, p), rel, !config);
        if (dep !== null) deps.push(dep);
      }
    }
    this.files.set(abs, { key, deps });
  }

  private relative(abs: string): string {
    return abs.slice(this.src.rootReal.length + 1);
  }
}
