/**
 * Where the shared bridges of a user listen (SPEC §2.2): a private directory,
 * `$XDG_RUNTIME_DIR/theodolite` when the runtime directory is the user's own and
 * private, else `<temp dir>/theodolite-<uid>`. Created 0700; an existing one must be
 * a real directory (never a link), owned by the user, with no access for others —
 * anything else is refused, never repaired: the directory is the socket's first
 * access control, before the peer check on every connection.
 */
import { lstatSync, mkdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { socketDirRefused } from "./start-errors.ts";

/** What `lstat` says of a directory, as far as privacy goes. */
export interface DirFacts {
  isDirectory: boolean;
  isSymbolicLink: boolean;
  uid: number;
  mode: number;
}

/** Why a directory is not private to `uid`, or null when it is (pure). */
export function notPrivate(facts: DirFacts, uid: number): string | null {
  if (facts.isSymbolicLink) return "is a symbolic link";
  if (!facts.isDirectory) return "is not a directory";
  if (facts.uid !== uid) return `is owned by uid ${facts.uid}, not ${uid}`;
  const mode = facts.mode & 0o777;
  if ((mode & 0o077) !== 0) return `has mode 0${mode.toString(8)}, not 0700`;
  return null;
}

/**
 * The directory to use (pure): the runtime directory's, when it is set, absolute and
 * private (`runtime` is what lstat says of it, null when absent), else the temp dir's.
 */
export function chooseSocketDir(
  env: Record<string, string | undefined>,
  uid: number,
  tmp: string,
  runtime: DirFacts | null,
): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && isAbsolute(xdg) && runtime !== null && notPrivate(runtime, uid) === null) {
    return join(xdg, "theodolite");
  }
  return join(tmp, `theodolite-${uid}`);
}

function facts(path: string): DirFacts | null {
  try {
    const st = lstatSync(path);
    return {
      isDirectory: st.isDirectory(),
      isSymbolicLink: st.isSymbolicLink(),
      uid: st.uid,
      mode: st.mode,
    };
  } catch {
    return null;
  }
}

/** The user's private socket directory, created when missing, checked always; or ConfigInvalid. */
export function privateSocketDir(
  env: Record<string, string | undefined>,
  uid: number,
  tmp: string,
): string {
  const xdg = env.XDG_RUNTIME_DIR;
  const dir = chooseSocketDir(env, uid, tmp, xdg && isAbsolute(xdg) ? facts(xdg) : null);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as { code?: string }).code !== "EEXIST") {
      throw socketDirRefused(dir, `cannot be created: ${String(err)}`);
    }
  }
  assertPrivate(dir, uid);
  return dir;
}

/** The directory is still private to `uid`, or ConfigInvalid (checked again before every attach). */
export function assertPrivate(dir: string, uid: number): void {
  const found = facts(dir);
  const why = found === null ? "does not exist" : notPrivate(found, uid);
  if (why !== null) throw socketDirRefused(dir, why);
}
