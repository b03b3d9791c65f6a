/**
 * The optional log file with size-based rotation (SPEC §3, `bridge.log`): `file`, then
 * `file.1` … `file.<max_files>`; a write that would pass `max_bytes` rotates
 * first. Where it may lie is a configuration rule (config/log-location.ts).
 * Never stdout.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { LogConfig } from "./config/types.ts";
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

export function attachLogFile(cfg: LogConfig): void {
  if (cfg.file === null) return;
  log.addSink(new RotatingLogFile(cfg.file, cfg.max_bytes, cfg.max_files));
}
