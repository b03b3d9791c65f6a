/**
 * A session's requests to its server (SPEC §4.6, §9.1): each bounded (rpc.ts), failed at
 * once when the session dies or breaks; ContentModified retried once idle (SPEC §3.3).
 */
import { type MessageConnection, ResponseError } from "vscode-languageserver-protocol";
import { log } from "../log.ts";
import type { SessionContext } from "./context.ts";
import { isContentModified, type LspRequest, sendBounded } from "./rpc.ts";
import { cancelledError, serverError, shuttingDownError } from "./session-errors.ts";

const CONTENT_MODIFIED_RETRIES = 3;

/** A request whose answer marks a point in what the server sent (its result is not used). */
export interface BarrierRequest {
  method: string;
  params: unknown;
}

const MAIN_BARRIER: BarrierRequest = { method: "theodolite/barrier", params: {} };

export class Requests {
  constructor(
    private readonly ctx: SessionContext,
    /** the connection of the current server life, if any */
    private readonly connection: () => MessageConnection | undefined,
    /** whether the server is idle: quiescent where it says so, no progress task running */
    private readonly idle: () => boolean = () => true,
  ) {}

  private get life() {
    return this.ctx.life;
  }

  /** One bounded request on `conn`; a handshake fails at once when the bridge is exiting. */
  send<R>(
    conn: MessageConnection,
    request: LspRequest<unknown, R> | string,
    params: unknown,
    signal: AbortSignal | undefined,
    timeoutMs = this.ctx.bridge.request_timeout_ms,
  ): Promise<R> {
    const { life } = this;
    return sendBounded<R>(conn, request, params, {
      timeoutMs,
      signal,
      watch: life.changes,
      failure: () => {
        if (life.closing && life.state === "initializing") return shuttingDownError(life.label);
        return life.broken ||
          life.state === "dead" ||
          (this.connection() !== conn && life.state !== "initializing")
          ? life.deadError()
          : undefined;
      },
    });
  }

  /** A request on a ready session: LSP errors become ServerError, ContentModified is retried. */
  async call<P, R>(
    request: LspRequest<P, R>,
    params: P,
    signal: AbortSignal | undefined,
  ): Promise<R> {
    const { method } = request;
    for (let attempt = 0; ; attempt++) {
      const conn = this.connection();
      if (!conn || this.life.state === "dead") throw this.life.deadError();
      try {
        return await this.send<R>(conn, request as LspRequest<unknown, R>, params, signal);
      } catch (err) {
        if (isContentModified(err) && attempt < CONTENT_MODIFIED_RETRIES) {
          log.debug(`[${this.ctx.key}] ${method}: content modified; asked again once idle`);
          await this.untilIdle(signal, () => serverError(method, err as ResponseError<unknown>));
          continue;
        }
        throw err instanceof ResponseError ? serverError(method, err) : err;
      }
    }
  }

  /**
   * After "content modified" (SPEC §3.3): a barrier, then until idle, bounded by
   * request_timeout_ms; the timeout fails as the server's own error.
   */
  private async untilIdle(signal: AbortSignal | undefined, onTimeout: () => Error): Promise<void> {
    await this.barrier(signal);
    await this.life.changes.until(() => (this.idle() ? true : undefined), {
      timeoutMs: this.ctx.bridge.request_timeout_ms,
      ...(signal ? { signal } : {}),
      onTimeout,
      onAbort: cancelledError,
    });
  }

  /**
   * Resolves once the server has handled every notification sent before it (SPEC §5.3): an
   * unknown method, answered MethodNotFound in order (not `$/`: some servers drop those).
   */
  async barrier(signal?: AbortSignal, via: BarrierRequest = MAIN_BARRIER): Promise<void> {
    const conn = this.connection();
    if (!conn || this.life.state === "dead") throw this.life.deadError();
    try {
      await this.send(conn, via.method, via.params, signal);
    } catch (err) {
      if (!(err instanceof ResponseError)) throw err;
    }
  }
}
