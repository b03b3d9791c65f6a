/**
 * Logging: stderr always, never stdout (SPEC §2: stdout carries only MCP
 * messages). Lines are `theodolite <level> <message>`; a file sink can be
 * attached (the rotating file, log-file.ts). A stderr nobody reads holds
 * nothing (SPEC §8.2): once a write finds the pipe full, lines are dropped and
 * counted until it drains, and the count is logged then.
 */
import type { LogLevel } from "./config/types.ts";

const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface LogSink {
  write(line: string): void;
}

class Logger {
  private threshold: number = ORDER.info;
  private sinks: LogSink[] = [];
  private stderrOpen = true;
  /** a write found stderr's pipe full: lines are dropped until it drains */
  private stderrFull = false;
  private dropped = 0;

  constructor() {
    // a closed stderr (the client went away) ends stderr logging, not the process
    process.stderr.on("error", () => {
      this.stderrOpen = false;
    });
    process.stderr.on("drain", () => {
      this.stderrFull = false;
    });
  }

  setLevel(level: LogLevel): void {
    this.threshold = ORDER[level];
  }

  isEnabled(level: LogLevel): boolean {
    return ORDER[level] <= this.threshold;
  }

  addSink(sink: LogSink): void {
    this.sinks.push(sink);
  }

  log(level: LogLevel, message: string): void {
    if (!this.isEnabled(level)) return;
    const line = `theodolite ${level} ${message}\n`;
    if (this.stderrOpen) this.toStderr(line);
    for (const sink of this.sinks) sink.write(`${new Date().toISOString()} ${line}`);
  }

  private toStderr(line: string): void {
    if (this.stderrFull) {
      this.dropped += 1;
      return;
    }
    let text = line;
    if (this.dropped > 0) {
      text = `theodolite warn ${this.dropped} log lines dropped: stderr was not read\n${line}`;
      this.dropped = 0;
    }
    if (!process.stderr.write(text)) this.stderrFull = true;
  }

  error(message: string): void {
    this.log("error", message);
  }
  warn(message: string): void {
    this.log("warn", message);
  }
  info(message: string): void {
    this.log("info", message);
  }
  debug(message: string): void {
    this.log("debug", message);
  }
}

export const log = new Logger();

export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  return value === "error" || value === "warn" || value === "info" || value === "debug"
    ? value
    : undefined;
}
