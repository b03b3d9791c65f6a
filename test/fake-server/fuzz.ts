/**
 * Seeded random answers for the fuzz scenario key: for each request, a value shaped
 * roughly like what the method returns (locations, symbols, hovers, edits, code actions,
 * diagnostics), with mutated fields, foreign URIs and plain junk mixed in, or an error.
 * The same (seed, method, params, n-th time they are asked) always gives the same answer.
 */
import { ResponseError } from "vscode-languageserver-protocol/node";
import { Prng } from "../support/prng.ts";
import type { FuzzSpec } from "./scenario.ts";

const STRINGS = [
  "",
  "x",
  "fn_main",
  "new_name",
  "\u0000",
  "\ud800",
  "😀é",
  "a".repeat(300),
  "line\r\nbreak",
  "../../etc/passwd",
  "file:///dev/zero",
  "untitled:Untitled-1",
  "```ts\ncode\n```",
];
const NUMBERS = [0, 1, 2, 3, 5, -1, -7, 1.5, 2147483647, 2 ** 53, 1e308];
const KEYS = [
  "uri",
  "range",
  "start",
  "end",
  "line",
  "character",
  "name",
  "kind",
  "children",
  "location",
  "edit",
  "changes",
  "documentChanges",
  "contents",
  "value",
  "items",
  "textDocument",
  "edits",
  "newText",
  "title",
];

class Gen {
  constructor(
    private readonly r: Prng,
    private readonly uris: string[],
  ) {}

  junk(depth = 3): unknown {
    const r = this.r;
    switch (r.int(0, 7)) {
      case 0:
        return null;
      case 1:
        return r.pick(NUMBERS);
      case 2:
        return r.pick(STRINGS);
      case 3:
        return r.chance(0.5);
      case 4:
      case 5:
        return depth <= 0 ? [] : this.list(() => this.junk(depth - 1), 4);
      default: {
        if (depth <= 0) return {};
        const out: Record<string, unknown> = {};
        for (let i = r.int(0, 4); i > 0; i--) out[r.pick(KEYS)] = this.junk(depth - 1);
        return out;
      }
    }
  }

  /** usually well-formed, sometimes mutated */
  maybe<T>(good: () => T): T | unknown {
    return this.r.chance(0.9) ? good() : this.junk(2);
  }

  /** `big`: sometimes thousands of items (top-level lists only, to test the size caps) */
  list<T>(item: () => T, max = 6, big = false): T[] {
    const n = big && this.r.chance(0.03) ? 3000 : this.r.int(0, max);
    return Array.from({ length: n }, item);
  }

  num(small: number): unknown {
    return this.r.chance(0.9) ? this.r.int(0, small) : this.r.pick(NUMBERS);
  }

  position(): unknown {
    return this.maybe(() => ({ line: this.num(6), character: this.num(40) }));
  }

  range(): unknown {
    return this.maybe(() => ({ start: this.position(), end: this.position() }));
  }

  uri(): unknown {
    return this.r.chance(0.9) ? this.r.pick(this.uris) : this.r.pick(STRINGS);
  }

  location(): unknown {
    if (this.r.chance(0.3)) {
      return {
        targetUri: this.uri(),
        targetRange: this.range(),
        targetSelectionRange: this.range(),
      };
    }
    return this.maybe(() => ({ uri: this.uri(), range: this.range() }));
  }

  textEdit(): unknown {
    return this.maybe(() => ({ range: this.range(), newText: this.r.pick(STRINGS) }));
  }

  workspaceEdit(): unknown {
    return this.maybe(() => {
      if (this.r.chance(0.5)) {
        const changes: Record<string, unknown> = {};
        for (let i = this.r.int(0, 3); i > 0; i--) {
          changes[String(this.uri())] = this.list(() => this.textEdit(), 3);
        }
        return { changes };
      }
      return {
        documentChanges: this.list(() => {
          if (this.r.chance(0.15)) {
            return { kind: this.r.pick(["create", "rename", "delete"]), uri: this.uri() };
          }
          return {
            textDocument: { uri: this.uri(), version: this.r.chance(0.5) ? null : this.num(9) },
            edits: this.list(() => this.textEdit(), 3),
          };
        }, 3),
      };
    });
  }

  symbol(depth: number): unknown {
    return this.maybe(() => ({
      name: this.r.pick(STRINGS),
      kind: this.num(30),
      range: this.range(),
      selectionRange: this.range(),
      ...(depth > 0 && this.r.chance(0.4)
        ? { children: this.list(() => this.symbol(depth - 1), 3) }
        : {}),
    }));
  }

  symbolInformation(): unknown {
    return this.maybe(() => ({
      name: this.r.pick(STRINGS),
      kind: this.num(30),
      location: this.location(),
      containerName: this.r.pick(STRINGS),
    }));
  }

  hover(): unknown {
    const contents = this.r.pick<() => unknown>([
      () => this.r.pick(STRINGS),
      () => ({
        kind: this.r.pick(["markdown", "plaintext", "other"]),
        value: this.r.pick(STRINGS),
      }),
      () => ({ language: "ts", value: this.r.pick(STRINGS) }),
      () => this.list(() => this.r.pick(STRINGS), 3),
    ])();
    return this.maybe(() => ({ contents, ...(this.r.chance(0.5) ? { range: this.range() } : {}) }));
  }

  diagnostic(): unknown {
    return this.maybe(() => ({
      range: this.range(),
      message: this.r.pick(STRINGS),
      severity: this.num(5),
      code: this.r.chance(0.5) ? this.r.pick(STRINGS) : this.num(9),
      source: this.r.pick(STRINGS),
      relatedInformation: this.list(() => ({ location: this.location(), message: "rel" }), 2),
    }));
  }

  codeAction(): unknown {
    if (this.r.chance(0.2)) return { title: this.r.pick(STRINGS), command: "x.cmd", arguments: [] };
    return this.maybe(() => ({
      title: this.r.pick(STRINGS),
      kind: this.r.pick(["quickfix", "refactor", "source", ""]),
      ...(this.r.chance(0.8) ? { edit: this.workspaceEdit() } : {}),
      ...(this.r.chance(0.1) ? { disabled: { reason: "no" } } : {}),
    }));
  }

  callItem(): unknown {
    return this.maybe(() => ({
      name: this.r.pick(STRINGS),
      kind: this.num(30),
      uri: this.uri(),
      range: this.range(),
      selectionRange: this.range(),
    }));
  }

  answer(method: string): unknown {
    switch (method) {
      case "textDocument/prepareCallHierarchy":
        return this.list(() => this.callItem(), 2);
      case "callHierarchy/incomingCalls":
        return this.list(
          () => ({ from: this.callItem(), fromRanges: this.list(() => this.range(), 2) }),
          6,
          true,
        );
      case "callHierarchy/outgoingCalls":
        return this.list(
          () => ({ to: this.callItem(), fromRanges: this.list(() => this.range(), 2) }),
          6,
          true,
        );
      case "textDocument/definition":
      case "textDocument/declaration":
      case "textDocument/typeDefinition":
      case "textDocument/implementation":
      case "textDocument/references":
        return this.r.chance(0.2) ? this.location() : this.list(() => this.location(), 6, true);
      case "textDocument/documentSymbol":
        return this.r.chance(0.3)
          ? this.list(() => this.symbolInformation(), 6, true)
          : this.list(() => this.symbol(3), 6, true);
      case "workspace/symbol":
        return this.list(() => this.symbolInformation(), 6, true);
      case "textDocument/hover":
        return this.hover();
      case "textDocument/rename":
        return this.workspaceEdit();
      case "textDocument/prepareRename":
        return this.r.chance(0.2)
          ? null
          : this.maybe(() => ({ range: this.range(), placeholder: "x" }));
      case "textDocument/codeAction":
        return this.list(() => this.codeAction(), 6, true);
      case "codeAction/resolve":
        return this.codeAction();
      case "textDocument/diagnostic":
        return this.maybe(() => ({
          kind: "full",
          items: this.list(() => this.diagnostic(), 6, true),
        }));
      default:
        return this.junk();
    }
  }
}

const ERROR_CODES = [-32603, -32801, -32800, -32601, -32002, 1234];

/**
 * The answer to the n-th request with this key (its method, then its params with the root
 * left out): a value, or a thrown ResponseError. Keyed by the params, a request the bridge
 * repeats (a retry) changes no other request's answer, and a restarted server does not
 * replay the same few answers.
 */
export function fuzzAnswer(spec: FuzzSpec, key: string, n: number): unknown {
  const method = key.slice(0, key.indexOf(" "));
  const r = new Prng(Prng.derive(spec.seed, key, n));
  if (r.chance(0.08)) throw new ResponseError(r.pick(ERROR_CODES), `fuzz error ${n}`);
  const gen = new Gen(r, spec.uris);
  return r.chance(0.08) ? gen.junk() : gen.answer(method);
}
