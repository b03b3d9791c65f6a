/**
 * A session's requests to its server (SPEC §4.6, §9.1): each one bounded (rpc.ts: the
 * request timeout and the client's cancellation both send `$/cancelRequest`) and failed at
 * once when the session dies or the server breaks the protocol; ContentModified retried on
 * the next server event a bounded number of times (SPEC §3.3); and bounded waits on session
 * state (the diagnostics settle rules).
 */
import { type MessageConnection, ResponseError } from "vscode-languageserver-protocol";
import type { BridgeConfig } from "../config/types.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { isContentModified, sendBounded, serverError } from "./rpc.ts";
import { cancelledError, shuttingDownError, stateTimeoutError } from "./session-errors.ts";

const CONTENT_MODIFIED_RETRIES = 3;

export class Requests {
  constructor(
    private readonly life: Lifecycle,
    private readonly bridge: BridgeConfig,
    /** the connection of the current server life, if any */
    private readonly connection: () => MessageConnection | undefined,
  ) {}

  /**
   * One bounded request on `conn`; fails at once when the session dies or breaks, and a
   * handshake fails at once when the bridge is exiting.
   */
  send<R>(
    conn: MessageConnection,
    method: string,
    params: unknown,
    signal: AbortSignal | undefined,
    timeoutMs = this.bridge.request_timeout_ms,
  ): Promise<R> {
    const { life } = this;
    return sendBounded<R>(conn, method, params, {
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
  async call<R>(method: string, params: unknown, signal: AbortSignal | undefined): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const conn = this.connection();
      if (!conn || this.life.state === "dead") throw this.life.deadError();
      try {
        return await this.send<R>(conn, method, params, signal);
      } catch (err) {
        if (isContentModified(err) && attempt < CONTENT_MODIFIED_RETRIES) {
          await this.life.changes.next({
            timeoutMs: this.bridge.request_timeout_ms,
            ...(signal ? { signal } : {}),
            onTimeout: () => serverError(method, err as ResponseError<unknown>),
            onAbort: cancelledError,
          });
          continue;
        }
        throw err instanceof ResponseError ? serverError(method, err) : err;
      }
    }
  }

  /**
   * Resolves once the server has handled every notification sent before it (SPEC §5.3): a
   * request for a method no server has, which JSON-RPC has it answer with MethodNotFound,
   * in order. Not a `$/` method: some servers drop those unanswered (bacon-ls, measured).
   */
  async barrier(signal?: AbortSignal): Promise<void> {
    const conn = this.connection();
    if (!conn || this.life.state === "dead") throw this.life.deadError();
    try {
      await this.send(conn, "theodolite/barrier", {}, signal);
    } catch (err) {
      if (!(err instanceof ResponseError)) throw err;
    }
  }

  /** Wait on session state (diagnostics settle), bounded by request_timeout_ms. */
  waitUntil<T>(check: () => T | undefined, what: string, signal?: AbortSignal): Promise<T> {
    const { life, bridge } = this;
    return life.changes.until(
      () => {
        if (life.closing) throw shuttingDownError(life.label);
        if (life.state === "dead") throw life.deadError();
        return check();
      },
      {
        timeoutMs: bridge.request_timeout_ms,
        ...(signal ? { signal } : {}),
        onTimeout: () => stateTimeoutError(life.label, bridge.request_timeout_ms, what),
        onAbort: cancelledError,
      },
    );
  }
}
