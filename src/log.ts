/**
 * Logging: stderr always, never stdout (SPEC §2: stdout carries only MCP
 * messages). Lines are `theodolite <level> <message>`; a file sink can be
 * attached (the rotating file, log-file.ts).
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

  constructor() {
    // a closed stderr (the client went away) ends stderr logging, not the process
    process.stderr.on("error", () => {
      this.stderrOpen = false;
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
    if (this.stderrOpen) process.stderr.write(line);
    for (const sink of this.sinks) sink.write(`${new Date().toISOString()} ${line}`);
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
