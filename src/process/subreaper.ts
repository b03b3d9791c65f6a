/**
 * Child subreaper (SPEC §9.2 "close it if you can"): a daemon that calls
 * `setsid` and double-forks leaves the supervisor's process group, and its
 * parent dies; without a subreaper it is re-parented to PID 1 and escapes the
 * tree. With PR_SET_CHILD_SUBREAPER the orphan is re-parented to the
 * supervisor instead, so the descendant scan still finds it.
 */
import { setChildSubreaper } from "../ffi/process.ts";

/** prctl(PR_SET_CHILD_SUBREAPER, 1) via libc; false (never throws) if unavailable. */
export function becomeChildSubreaper(): boolean {
  return setChildSubreaper();
}
