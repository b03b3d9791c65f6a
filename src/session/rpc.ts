/**
 * One LSP request, bounded (SPEC §9.1): a timeout or the client's cancellation sends
 * `$/cancelRequest` and fails typed; a session that dies meanwhile fails it at once.
 */
import {
  CancellationTokenSource,
  type MessageConnection,
  type RequestType,
  ResponseError,
} from "vscode-languageserver-protocol";
import type { BridgeError } from "../errors.ts";
import { requestCancelledError, requestTimeoutError } from "./session-errors.ts";
import type { StateChanges } from "./state-changes.ts";

/** rust-analyzer's "content modified" during loads (SPEC §3.3). */
export const CONTENT_MODIFIED = -32801;

export interface BoundedRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** re-checked on every session event: a returned error fails the request at once */
  watch: StateChanges;
  failure: () => BridgeError | undefined;
}

/** A request of vscode-languageserver-protocol (`HoverRequest.type`…): method, params and result bound. */
export type LspRequest<P, R> = RequestType<P, R, unknown>;

/** One request: a typed one, or a method the configuration or the bridge names (a probe, a barrier). */
export function sendBounded<R>(
  conn: MessageConnection,
  request: LspRequest<unknown, R> | string,
  params: unknown,
  opts: BoundedRequestOptions,
): Promise<R> {
  const method = typeof request === "string" ? request : request.method;
  const cts = new CancellationTokenSource();
  const { timeoutMs, signal } = opts;
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      unsubscribe();
      fn();
    };
    // the bound of the request, ending in a typed error
    const timer = setTimeout(() => {
      cts.cancel();
      finish(() => reject(requestTimeoutError(method, timeoutMs)));
    }, timeoutMs);
    const onAbort = (): void => {
      cts.cancel();
      finish(() => reject(requestCancelledError(method)));
    };
    const unsubscribe = opts.watch.subscribe(() => {
      const failure = opts.failure();
      if (failure) finish(() => reject(failure));
    });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    // void requests (shutdown) go without params
    // (docs/LANGUAGE-SERVERS.md#void-requests-without-params)
    let sent: Promise<R>;
    try {
      sent =
        params === undefined
          ? conn.sendRequest<R>(method, cts.token)
          : conn.sendRequest<R>(method, params, cts.token);
    } catch {
      // a connection whose output ended throws at once: the session's verdict on that end
      // (stdout-end.ts) comes through the watch above, the timer bounding it
      const failure = opts.failure();
      if (failure) finish(() => reject(failure));
      return;
    }
    sent.then(
      (value) => finish(() => resolve(value)),
      (err: unknown) => finish(() => reject(err)),
    );
  });
}

export function isContentModified(err: unknown): boolean {
  return err instanceof ResponseError && err.code === CONTENT_MODIFIED;
}
