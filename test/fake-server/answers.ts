/**
 * How the fake server answers requests, as data (scenario.ts). One place
 * decides, in this order: delay (cancellable), ContentModified countdown,
 * probe failures, scripted errors, generated `huge` lists, the per-method
 * keys (code actions, rename, diagnostics), `responses`, else MethodNotFound.
 */

import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type CancellationToken,
  type CodeAction,
  ResponseError,
} from "vscode-languageserver-protocol/node";
import { fuzzAnswer } from "./fuzz.ts";
import { probeAnswer } from "./line-probe.ts";
import { hugeResult, matchSymbols, requestUri, toDiagnostic } from "./results.ts";
import type { Scenario } from "./scenario.ts";
import type { FakeState } from "./state.ts";

/**
 * `fake/tmpdir`: the temporary directory the server was given (os.tmpdir(), from TMPDIR),
 * with a file written into it as a server would (null when it could not be).
 */
function tmpdirReport(): { tmpdir: string; file: string | null } {
  const dir = tmpdir();
  const file = join(dir, `fake-ls-${process.pid}.tmp`);
  try {
    writeFileSync(file, "left by the fake server\n");
    return { tmpdir: dir, file };
  } catch {
    return { tmpdir: dir, file: null };
  }
}

const METHOD_NOT_FOUND = -32601;
const CONTENT_MODIFIED = -32801;
const REQUEST_CANCELLED = -32800;
const SERVER_NOT_INITIALIZED = -32002;

/** Wait `ms`, or fail with RequestCancelled as soon as the client cancels. */
function cancellableDelay(ms: number, token: CancellationToken): Promise<void> {
  return new Promise((resolve, reject) => {
    if (token.isCancellationRequested) {
      reject(new ResponseError(REQUEST_CANCELLED, "fake-ls: cancelled"));
      return;
    }
    const timer = setTimeout(() => {
      sub.dispose();
      resolve();
    }, ms);
    const sub = token.onCancellationRequested(() => {
      clearTimeout(timer);
      sub.dispose();
      reject(new ResponseError(REQUEST_CANCELLED, "fake-ls: cancelled"));
    });
  });
}

export class Responder {
  private readonly contentModifiedLeft = new Map<string, number>();
  private probeFailuresLeft: number;
  /** how often each (method, params) was asked: with the seed, what makes a fuzz answer reproducible */
  private readonly fuzzCount = new Map<string, number>();
  /** `textDocument/rename` requests answered so far (`rename_edits`) */
  private renames = 0;
  /** the first document opened, for results about no particular document */
  firstUri: string | undefined;
  rootUri: string | undefined;

  constructor(
    private readonly s: Scenario,
    private readonly state: FakeState,
  ) {
    for (const [method, n] of Object.entries(s.content_modified_times ?? {})) {
      this.contentModifiedLeft.set(method, n);
    }
    this.probeFailuresLeft = s.probe_fail_times ?? 0;
  }

  async answer(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const s = this.s;
    const delayMs = s.response_delay_ms?.[method];
    if (delayMs !== undefined) await cancellableDelay(delayMs, token);

    const modifiedLeft = this.contentModifiedLeft.get(method) ?? 0;
    if (modifiedLeft > 0) {
      this.contentModifiedLeft.set(method, modifiedLeft - 1);
      this.state.event("out", "error", { detail: { method, code: CONTENT_MODIFIED } });
      throw new ResponseError(CONTENT_MODIFIED, "fake-ls: content modified");
    }
    if (method === "workspace/symbol" && this.probeFailuresLeft > 0) {
      this.probeFailuresLeft -= 1;
      this.state.event("out", "error", { detail: { method, code: SERVER_NOT_INITIALIZED } });
      throw new ResponseError(SERVER_NOT_INITIALIZED, "fake-ls: workspace not loaded yet");
    }
    const scripted = s.error_on?.[method];
    if (scripted !== undefined) throw new ResponseError(scripted.code, scripted.message);

    if (s.fuzz !== undefined && !method.startsWith("fake/")) {
      // the root is a fresh temp dir on every run: keyed without it, answers reproduce
      const root = this.rootUri ?? "\u0000";
      const key = `${method} ${JSON.stringify(params ?? null).replaceAll(root, "<root>")}`;
      const n = (this.fuzzCount.get(key) ?? 0) + 1;
      this.fuzzCount.set(key, n);
      return fuzzAnswer(s.fuzz, key, n);
    }
    const hugeCount = s.huge?.[method];
    if (hugeCount !== undefined) {
      const uri = requestUri(params) ?? this.firstUri ?? `${this.rootUri ?? "file:///"}/huge.fake`;
      return hugeResult(method, hugeCount, uri);
    }
    return this.byMethod(method, params);
  }

  private byMethod(method: string, params: unknown): unknown {
    const s = this.s;
    if (s.line_probe !== undefined) {
      const text = this.state.document(requestUri(params) ?? "")?.text ?? "";
      const answer = probeAnswer(s.line_probe, method, params, text, s.encoding ?? "utf-16");
      if (answer !== undefined) return answer;
    }
    switch (method) {
      case "fake/state":
        return this.state.snapshot();
      case "fake/echo":
        return params;
      case "fake/tmpdir":
        return tmpdirReport();
      case "textDocument/codeAction":
        if (s.code_actions !== undefined) return s.code_actions;
        break;
      case "codeAction/resolve":
        if (s.resolve !== undefined) {
          const action = params as CodeAction;
          const edit = s.resolve[action?.title];
          return edit === undefined ? action : { ...action, edit };
        }
        break;
      case "textDocument/rename":
        if (s.rename_edits !== undefined && s.rename_edits.length > 0) {
          const n = Math.min(this.renames++, s.rename_edits.length - 1);
          return s.rename_edits[n] ?? null;
        }
        if (Object.hasOwn(s, "rename_edit")) return s.rename_edit ?? null;
        break;
      case "completionItem/resolve":
        if (s.completion_resolve !== undefined) {
          const item = params as { label?: string };
          return { ...item, ...s.completion_resolve[item?.label ?? ""] };
        }
        break;
      case "textDocument/prepareRename":
        if (Object.hasOwn(s, "prepare_rename")) return s.prepare_rename ?? null;
        break;
      case "textDocument/documentSymbol":
        if (s.symbols_from_text !== undefined) {
          const uri = requestUri(params) ?? "";
          return matchSymbols(this.state.document(uri)?.text ?? "", s.symbols_from_text);
        }
        break;
      case "textDocument/diagnostic":
        if (s.pull_diagnostics !== undefined) {
          return { kind: "full", items: s.pull_diagnostics.map(toDiagnostic) };
        }
        break;
    }
    const responses = s.responses ?? {};
    if (Object.hasOwn(responses, method)) return responses[method];
    return new ResponseError(METHOD_NOT_FOUND, `fake-ls: no response scripted for ${method}`);
  }
}
