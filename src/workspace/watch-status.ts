/**
 * What `session_status` says of a workspace watcher (SPEC §5.2, §10), pure: whether it
 * watches, why some directories are not watched (the bound, or the kernel's limit), a
 * sorted sample of them, and an estimate of the memory the watches and the index hold.
 */
import { relativeInside } from "./paths.ts";

/** kernel memory per inotify watch on 64-bit (inotify(7): "roughly 1 kB") */
const KERNEL_BYTES_PER_WATCH = 1080;
/** rough JS heap cost of one indexed name / one watched directory entry */
const INDEX_BYTES_PER_NAME = 80;
const INDEX_BYTES_PER_DIRECTORY = 240;
const SAMPLE = 8;

export interface WatchStatus {
  state: "watching" | "unavailable";
  reason: string | null;
  watched_directories: number;
  max_watches: number;
  files_indexed: number;
  /** directories not watched because the bound (or the kernel's limit) was reached */
  unwatched_directories: number;
  unwatched_sample: string[];
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
  maxWatches: number;
  watchedDirectories: number;
  filesIndexed: number;
  unwatched: Iterable<string>;
  overflows: number;
}

export function watchStatus(f: WatchFacts): WatchStatus {
  const unwatched = [...f.unwatched].sort();
  return {
    state: f.watching ? "watching" : "unavailable",
    reason:
      f.failure ??
      (f.kernelLimit
        ? "the kernel's inotify watch limit (fs.inotify.max_user_watches) was reached"
        : unwatched.length > 0
          ? `more than bridge.max_watches (${f.maxWatches}) directories`
          : null),
    watched_directories: f.watchedDirectories,
    max_watches: f.maxWatches,
    files_indexed: f.filesIndexed,
    unwatched_directories: unwatched.length,
    unwatched_sample: unwatched.slice(0, SAMPLE).map((d) => relativeInside(f.root, d) ?? d),
    overflows: f.overflows,
    memory_bytes:
      f.watchedDirectories * (KERNEL_BYTES_PER_WATCH + INDEX_BYTES_PER_DIRECTORY) +
      f.filesIndexed * INDEX_BYTES_PER_NAME,
  };
}
