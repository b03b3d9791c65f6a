/**
 * The cheap look at a file (SPEC §5.1): one `lstat` of its path, compared with the identity
 * recorded when its content was last read (confined.ts takes that one by fstat of the
 * opened file, before reading). Equal: nothing to read. Different or gone: the caller reads
 * it again through the confined path, which alone decides what the content is.
 */
import { lstatSync } from "node:fs";
import { type FileIdentity, identityOf } from "./confined.ts";

const NO_THROW = { throwIfNoEntry: false } as const;

/** The path's identity now, or null when it is gone or no longer a regular file (never followed). */
export function currentIdentity(abs: string): FileIdentity | null {
  try {
    const s = lstatSync(abs, NO_THROW);
    return s?.isFile() ? identityOf(s) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the path still shows `known`: a regular file (never followed) of that identity.
 * currentIdentity compared, without the identity object made (a reference list looks at
 * hundreds of paths a call).
 */
export function unchanged(abs: string, known: FileIdentity): boolean {
  try {
    const s = lstatSync(abs, NO_THROW);
    return s?.isFile() === true && sameIdentity(known, s);
  } catch {
    return false;
  }
}

export function sameIdentity(a: FileIdentity | null, b: FileIdentity | null): boolean {
  if (a === null || b === null) return false;
  return (
    a.ino === b.ino &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.size === b.size &&
    a.dev === b.dev
  );
}
