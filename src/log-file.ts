/**
 * The optional log file with size-based rotation (issue 8): `file`, then
 * `file.1` … `file.<max_files>`; a write that would pass `max_bytes` rotates
 * first. The directory must lie inside a workspace or the system temp
 * directory (checked with the configuration). Never stdout.
 */
import { appendFileSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, relative, sep } from "node:path";
import type { Config, LogConfig } from "./config/types.ts";
import { BridgeError } from "./errors.ts";
import { log } from "./log.ts";

export class RotatingLogFile {
  private size: number;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    private readonly maxFiles: number,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.size = existsSync(path) ? statSync(path).size : 0;
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    appendFileSync(this.path, line);
    this.size += bytes;
  }

  private rotate(): void {
    rmSync(`${this.path}.${this.maxFiles}`, { force: true });
    for (let i = this.maxFiles - 1; i >= 1; i--) {
      const from = `${this.path}.${i}`;
      if (existsSync(from)) renameSync(from, `${this.path}.${i + 1}`);
    }
    if (this.maxFiles >= 1) renameSync(this.path, `${this.path}.1`);
    else rmSync(this.path, { force: true });
    this.size = 0;
  }
}

function inside(dir: string, base: string): boolean {
  const rel = relative(base, dir);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

/** The nearest existing ancestor, resolved (the log directory may not exist yet). */
function realExisting(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return realpathSync(p) + path.slice(p.length);
}

/** issue 8: the log directory lies in a workspace or the system temp directory, else ConfigInvalid. */
export function checkLogLocation(config: Config): void {
  const file = config.bridge.log.file;
  if (file === null) return;
  const dir = realExisting(dirname(file));
  const allowed = [realExisting(tmpdir()), ...config.workspaces.map((w) => realExisting(w.root))];
  if (!allowed.some((base) => inside(dir, base))) {
    throw new BridgeError("ConfigInvalid", `bridge.log.file: the directory ${dirname(file)} is outside every workspace and the system temp directory`, {
      hint: "put the log file inside a workspace root or the system temp directory",
      details: { path: "bridge.log.file", expected: "a path inside a workspace or the temp directory" },
    });
  }
}

export function attachLogFile(cfg: LogConfig): void {
  if (cfg.file === null) return;
  log.addSink(new RotatingLogFile(cfg.file, cfg.max_bytes, cfg.max_files));
}
