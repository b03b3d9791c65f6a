/**
 * Whether a shared bridge still answers (SPEC §2.2). A stopped or hung bridge keeps
 * accepting connections — the kernel queues them — and answers nothing, and its own
 * bounds (`request_timeout_ms`) run inside it: so the client side bounds its waits.
 * When the bridge has said nothing for the bridge's request timeout and a margin while
 * something waits for it, its control socket is asked `ping`; an answer within
 * PROBE_MS proves it alive (a slow call goes on waiting), silence makes it
 * unresponsive. The watchdog is a timer reset by traffic, not a poll: it fires only
 * after a quiet period with something waiting.
 */
import { type Probe, probeControl, type Silence } from "./control.ts";

/** How long a bridge gets to answer its control socket (attach, status, a quiet call). */
export const PROBE_MS = 3000;
/** Beyond the bridge's request timeout, how long a waiting call may hear nothing before the probe. */
export const QUIET_MARGIN_MS = 2000;

/** Ask the bridge behind `control` whether it answers. */
export function ping(control: string): Promise<Probe> {
  return probeControl(control, "ping", PROBE_MS);
}

export class Watchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  /**
   * `quietMs`: the bridge's request timeout and QUIET_MARGIN_MS; `busy`: whether anything
   * waits for the bridge; `onsilent`: the bridge did not answer the probe.
   */
  constructor(
    private readonly control: string,
    private readonly quietMs: number,
    private readonly busy: () => boolean,
    private readonly onsilent: (silence: Silence) => void,
  ) {}

  /** Something went to the bridge or came from it: the quiet period starts again. */
  touch(): void {
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), this.quietMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    if (this.stopped || !this.busy()) return;
    const probe = await ping(this.control);
    if (this.stopped) {
      if ("silent" in probe) probe.silent.drop();
      return;
    }
    if ("silent" in probe) {
      this.stop();
      this.onsilent(probe.silent);
      return;
    }
    // it answered, or it is gone (its connection's close says so): wait on
    this.touch();
  }
}
