/**
 * The optional log file (issue 8). Replaced by the rotating implementation.
 */
import { appendFileSync } from "node:fs";
import type { LogConfig } from "./config/types.ts";
import { log } from "./log.ts";

export function attachLogFile(cfg: LogConfig): void {
  const file = cfg.file;
  if (file === null) return;
  log.addSink({ write: (line) => appendFileSync(file, line) });
}
