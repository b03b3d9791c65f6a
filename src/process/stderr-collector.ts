/**
 * The supervised server's stderr as the bridge keeps it (SPEC §9.2): the
 * supervisor's marker line with the server's pid found and taken out, a
 * bounded tail for session_status and SessionDead, complete lines for logging.
 * Everything here is bounded (SPEC §8): a line longer than STDERR_LINE_CHARS is
 * kept to that length and ends in a count of what was dropped — a server that
 * never writes a newline (a progress bar redrawn with `\r`) costs that much, no
 * more — and each chunk is looked at once, in linear time.
 */
import { SERVER_PID_MARKER } from "./supervisor.ts";

/** The stderr tail kept and reported (session_status, SessionDead; SPEC §10: ≤ 4096). */
const STDERR_TAIL_CHARS = 4096;
/** SPEC §8: the longest stderr line kept; the rest of a longer one is counted, not kept. */
export const STDERR_LINE_CHARS = 4096;
/** Text held back while looking for the marker; past this the marker is considered lost. */
const MARKER_SEARCH_CHARS = 65536;
/** The marker's pid: at most this many digits (pid_max is at most 2^22). */
const PID_DIGITS_MAX = 10;

type Marker = { pid: number; start: number; end: number } | "incomplete" | null;

/**
 * The marker in `text`, searched from `from` on: found, cut off at the end of the text
 * (more may complete it), or absent. The marker is one write(2) of < PIPE_BUF bytes, so
 * other writers never split it, but server stderr may precede it (mid-line, even).
 */
function findMarker(text: string, from: number): Marker {
  for (let at = text.indexOf(SERVER_PID_MARKER, from); at >= 0; ) {
    const digits = at + SERVER_PID_MARKER.length;
    let end = digits;
    while (end < text.length && end - digits <= PID_DIGITS_MAX) {
      const c = text.charCodeAt(end);
      if (c < 0x30 || c > 0x39) break;
      end += 1;
    }
    if (end === text.length) return "incomplete";
    if (end > digits && text.charCodeAt(end) === 0x0a) {
      return { pid: Number(text.slice(digits, end)), start: at, end: end + 1 };
    }
    at = text.indexOf(SERVER_PID_MARKER, at + 1);
  }
  return null;
}

/** Collects stderr: finds the marker, keeps a bounded tail, emits lines. */
export class StderrCollector {
  /** the text held back, in the pieces it came in (joined once, when the search ends) */
  private held: string[] = [];
  private heldLength = 0;
  /** the held text's end, from where the marker may still begin: a search never rereads more */
  private window = "";
  private markerDone = false;
  private partial = "";
  /** characters of the current line beyond STDERR_LINE_CHARS, dropped */
  private dropped = 0;
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
    this.held.push(text);
    this.heldLength += text.length;
    this.window += text;
    const found = findMarker(this.window, 0);
    if (found !== null && found !== "incomplete") {
      this.resolvePid(found.pid);
      const held = this.held.join("");
      const at = held.length - this.window.length;
      this.finishMarkerSearch(held.slice(0, at + found.start) + held.slice(at + found.end));
    } else if (this.heldLength > MARKER_SEARCH_CHARS) {
      this.finishMarkerSearch(this.held.join(""));
    } else if (found === null) {
      // a marker may start in the last few characters and end in the next chunk
      this.window = this.window.slice(-SERVER_PID_MARKER.length);
    }
  }

  end(): void {
    if (!this.markerDone) this.finishMarkerSearch(this.held.join(""));
    if (this.partial !== "" || this.dropped > 0) this.emitLine();
  }

  tailText(): string {
    return (this.tail + this.partial).slice(-STDERR_TAIL_CHARS);
  }

  private finishMarkerSearch(rest: string): void {
    this.markerDone = true;
    this.held = [];
    this.window = "";
    this.resolvePid(undefined); // no-op when already resolved
    this.feed(rest);
  }

  private feed(text: string): void {
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      this.take(text, start, nl);
      this.emitLine();
      start = nl + 1;
    }
    this.take(text, start, text.length);
  }

  /** `text[start, end)` added to the current line, up to the bound; the rest only counted. */
  private take(text: string, start: number, end: number): void {
    const room = STDERR_LINE_CHARS - this.partial.length;
    const kept = Math.min(room, end - start);
    if (kept > 0) this.partial += text.slice(start, start + kept);
    this.dropped += end - start - Math.max(kept, 0);
  }

  private emitLine(): void {
    const line =
      this.dropped > 0
        ? `${this.partial}… (${this.dropped} more characters dropped)`
        : this.partial;
    this.partial = "";
    this.dropped = 0;
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
