/**
 * The supervised server's stderr as the bridge keeps it (SPEC §9.2): the
 * supervisor's marker line with the server's pid found and taken out, a
 * bounded tail for session_status and SessionDead, complete lines for logging.
 */
import { SERVER_PID_MARKER } from "./supervisor.ts";

/** The stderr tail kept and reported (session_status, SessionDead; SPEC §10: ≤ 4096). */
const STDERR_TAIL_CHARS = 4096;
/** Text held back while looking for the marker; past this the marker is considered lost. */
const MARKER_SEARCH_CHARS = 65536;
// The marker is one write(2) of < PIPE_BUF bytes, so it is never split by other
// writers, but server stderr may precede it (mid-line, even): search anywhere.
const MARKER_RE = new RegExp(`${SERVER_PID_MARKER}(\\d+)\\n`);

/** Collects stderr: finds the marker, keeps a bounded tail, emits lines. */
export class StderrCollector {
  private held = "";
  private markerDone = false;
  private partial = "";
  private tail = "";
  private readonly listeners: ((line: string) => void)[] = [];
  private resolvePid: (pid: number | undefined) => void = () => {};
  readonly serverPid = new Promise<number | undefined>((resolve) => {
    this.resolvePid = resolve;
  });

  onLine(cb: (line: string) => void): void {
    this.listeners.push(cb);
  }

  push(text: string): void {
    if (this.markerDone) {
      this.feed(text);
      return;
    }
    this.held += text;
    const match = MARKER_RE.exec(this.held);
    if (match !== null) {
      this.resolvePid(Number(match[1]));
      const rest = this.held.slice(0, match.index) + this.held.slice(match.index + match[0].length);
      this.finishMarkerSearch(rest);
    } else if (this.held.length > MARKER_SEARCH_CHARS) {
      this.finishMarkerSearch(this.held);
    }
  }

  end(): void {
    if (!this.markerDone) this.finishMarkerSearch(this.held);
    if (this.partial !== "") this.emit(this.partial);
    this.partial = "";
  }

  tailText(): string {
    return (this.tail + this.partial).slice(-STDERR_TAIL_CHARS);
  }

  private finishMarkerSearch(rest: string): void {
    this.markerDone = true;
    this.held = "";
    this.resolvePid(undefined); // no-op when already resolved
    this.feed(rest);
  }

  private feed(text: string): void {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) this.emit(line);
  }

  private emit(line: string): void {
    this.tail += `${line}\n`;
    if (this.tail.length > 2 * STDERR_TAIL_CHARS) this.tail = this.tail.slice(-STDERR_TAIL_CHARS);
    for (const cb of this.listeners) {
      try {
        cb(line);
      } catch {
        // a logging callback must not break stderr collection
      }
    }
  }
}
