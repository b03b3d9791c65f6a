/**
 * What `session_status` says of a workspace watcher (SPEC §5.2, §10), pure: whether it
 * watches, why some directories are not watched (the bound, the kernel's limit, paths too
 * long) and how many, a sorted sample of them, what is followed at the package level only
 * and through links, and an estimate of the memory the watches and the index hold.
 */
import { relativeInside } from "./paths.ts";
import { tooLong } from "./watch-walk.ts";

/** kernel memory per inotify watch on 64-bit (inotify(7): "roughly 1 kB") */
const KERNEL_BYTES_PER_WATCH = 1080;
/** rough JS heap cost of one indexed name / one watched directory entry */
const INDEX_BYTES_PER_NAME = 80;
const INDEX_BYTES_PER_DIRECTORY = 240;
const SAMPLE = 8;
/** a sampled path longer than this is shortened in the middle */
const SAMPLE_CHARS = 160;

function shortened(path: string): string {
  const keep = SAMPLE_CHARS / 2 - 1;
  return path.length <= SAMPLE_CHARS ? path : `${path.slice(0, keep)}…${path.slice(-keep)}`;
}

export interface WatchStatus {
  state: "watching" | "unavailable";
  reason: string | null;
  watched_directories: number;
  max_watches: number;
  files_indexed: number;
  /** directories not watched: past the bound, the kernel's limit, or paths too long */
  unwatched_directories: number;
  /** false: counting stopped at its limit, there are more */
  unwatched_exact: boolean;
  /** the topmost unwatched directories, sorted, at most eight (long ones shortened) */
  unwatched_sample: string[];
  /** dependency trees: containers watched, packages in them followed by their paths only */
  packages: { containers: number; followed: number };
  /** links inside the root whose target's changes are delivered under their path too */
  links: { followed: number; not_followed: number };
  overflows: number;
  memory_bytes: number;
}

/** What the watcher knows of itself. */
export interface WatchFacts {
  root: string;
  /** an inotify instance is open */
  watching: boolean;
  /** why there is none (not Linux, no libc, the instance limit) */
  failure: string | null;
  kernelLimit: boolean;
  /** bridge.max_watches was reached */
  boundHit: boolean;
  maxWatches: number;
  watchedDirectories: number;
  filesIndexed: number;
  /** topmost unwatched directories → directories in each subtree */
  unwatched: ReadonlyMap<string, number>;
  exact: boolean;
  containers: number;
  packages: number;
  links: number;
  linksNotFollowed: number;
  overflows: number;
}

function reasons(f: WatchFacts, roots: string[]): string | null {
  if (f.failure !== null) return f.failure;
  const why: string[] = [];
  if (f.kernelLimit) {
    why.push("the kernel's inotify watch limit (fs.inotify.max_user_watches) was reached");
  } else if (f.boundHit && roots.length > 0) {
    why.push(`more than bridge.max_watches (${f.maxWatches}) directories`);
  }
  if (roots.some(tooLong)) why.push("paths longer than the kernel accepts (PATH_MAX)");
  return why.length > 0 ? why.join("; ") : null;
}

export function watchStatus(f: WatchFacts): WatchStatus {
  const roots = [...f.unwatched.keys()].sort();
  let unwatched = 0;
  for (const n of f.unwatched.values()) unwatched += n;
  return {
    state: f.watching ? "watching" : "unavailable",
    reason: reasons(f, roots),
    watched_directories: f.watchedDirectories,
    max_watches: f.maxWatches,
    files_indexed: f.filesIndexed,
    unwatched_directories: unwatched,
    unwatched_exact: f.exact,
    unwatched_sample: roots.slice(0, SAMPLE).map((d) => shortened(relativeInside(f.root, d) ?? d)),
    packages: { containers: f.containers, followed: f.packages },
    links: { followed: f.links, not_followed: f.linksNotFollowed },
    overflows: f.overflows,
    memory_bytes:
      f.watchedDirectories * (KERNEL_BYTES_PER_WATCH + INDEX_BYTES_PER_DIRECTORY) +
      f.filesIndexed * INDEX_BYTES_PER_NAME,
  };
}
