/** The typed errors of workspace file access (SPEC §4.6 file checks), built in one place. */
import { BridgeError } from "../errors.ts";

/** `workspace`: the name of the workspace whose root the file is outside of, when known. */
export function outsideError(file: string, workspace: string | undefined): BridgeError {
  return new BridgeError("PathOutsideWorkspace", `${file} is outside the workspace root`, {
    hint: "pass a path inside the workspace, relative to its root; `..` and symlinks leading out are refused",
    details: { file, ...(workspace !== undefined ? { workspace } : {}) },
  });
}

/** A `file` argument that is empty or holds a NUL: no path at all. */
export function emptyPathError(file: string): BridgeError {
  return new BridgeError("InvalidArgument", "`file` must be a non-empty path", {
    hint: "pass a workspace-relative path such as src/main.c",
    details: { file },
  });
}

export function notFoundError(file: string, hint: string): BridgeError {
  return new BridgeError("FileNotFound", `${file} does not exist or is not a regular file`, {
    hint,
    details: { file },
  });
}

export function tooLargeError(file: string, bytes: number, maxBytes: number): BridgeError {
  return new BridgeError("FileTooLarge", `${file} is ${bytes} bytes, over the ${maxBytes} limit`, {
    hint: "raise bridge.max_file_bytes in bridge.toml if this file must be served",
    details: { bytes, max_bytes: maxBytes },
  });
}

export function notUtf8Error(file: string): BridgeError {
  return new BridgeError("NotUtf8", `${file} is not valid UTF-8`, {
    hint: "theodolite only works on UTF-8 text files; convert the file or pick another",
    details: { file },
  });
}

export const HINT = {
  checkPath: "check the path; it is resolved relative to the workspace root",
  directory: "the path is a directory; pass a file inside it",
  special: "the path is not a regular file (device, FIFO or socket)",
  loop: "the path is a symlink loop",
  newFile: "a new file's path must lead through directories (or none yet) inside the workspace",
  noAccess: "a directory on the path is not accessible",
  unreadable: "the file could not be read; check that it exists and is readable",
  swapped:
    "the path kept changing while it was opened (a link or directory was swapped); try again",
} as const;

export function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
