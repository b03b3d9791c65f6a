/**
 * Where a real server breaks lines (SPEC §5, the line model), probed on its own language:
 * a file of definitions, each after a comment holding one character LSP does not count as
 * a line break (NEL, VT, FF, U+2028, U+2029, FS, GS, RS) or does (a lone CR), then a use
 * of the last one. With the server's preset, every definition must come back at the line
 * the client counts (its symbols, or its diagnostics), and the use must be read at the
 * right place (its definition, or a hover that answers). A model set wrong moves a line;
 * what was found per server is in docs/LANGUAGE-SERVERS.md.
 */
import { expect } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BridgeHandle } from "./bridge.ts";
import { oracleLines, oraclePosition } from "./line-oracle.ts";
import { ok } from "./real-bridge.ts";

/** A lone CR first (every later line moves unless the server counts it), then the rest. */
export const PROBE_MARKS = [
  "\r",
  "\u0085",
  "\u000b",
  "\u000c",
  "\u2028",
  "\u2029",
  "\u001c",
  "\u001d",
  "\u001e",
];

export interface LineProbe {
  /** the probe file, written into the workspace */
  file: string;
  /** the definition of `name` (its first line holds the name) */
  def: (name: string) => string;
  /** one line of comment holding `mark`, commented on after it as well (whatever ends a line) */
  comment: (mark: string) => string;
  head?: string;
  tail?: string;
  /** which answer shows the definitions' lines (none: the use alone is checked) */
  by: "symbols" | "diagnostics" | "none";
  /** the name of the n-th definition (default `s<n>`) */
  name?: (n: number) => string;
  /** the name its symbol has in the answer (default the name) */
  symbol?: (name: string) => string;
  /** a line using the last definition, and how the server reads it */
  use?: { line: (name: string) => string; tool: "definition" | "hover" };
}

/** A comment of a language with line comments: the opener again after the mark. */
export function lineComment(open: string): (mark: string) => string {
  return (mark) => `${open} probe${mark}${open} probe`;
}

/** A comment of a language with block comments. */
export function blockComment(open: string, close: string): (mark: string) => string {
  return (mark) => `${open} probe${mark}probe ${close}`;
}

/** The client's 1-based line of `offset` (LSP's lines). */
function clientLine(text: string, offset: number): number {
  return oraclePosition(text, oracleLines(text, ["cr", "lf", "crlf"]), offset, "utf-16").line + 1;
}

/** Every name the answer holds with the 1-based line of its selection (a symbol tree). */
function symbolLines(nodes: unknown[], out: string[] = []): string[] {
  for (const n of nodes as { name: string; selection: { line: number }; children: unknown[] }[]) {
    out.push(`${n.name}@${n.selection.line}`);
    symbolLines(n.children, out);
  }
  return out;
}

/** Write the probe into `root` and check the server's answers on it through `bridge`. */
export async function checkLineProbe(bridge: BridgeHandle, root: string, p: LineProbe) {
  const name = p.name ?? ((n: number) => `s${n}`);
  const parts = [p.head ?? "", p.def(name(0))];
  PROBE_MARKS.forEach((mark, k) => {
    parts.push(p.comment(mark), p.def(name(k + 1)));
  });
  const last = name(PROBE_MARKS.length);
  if (p.use) parts.push(p.use.line(last));
  parts.push(p.tail ?? "", "");
  const text = parts.join("\n");
  mkdirSync(dirname(join(root, p.file)), { recursive: true });
  writeFileSync(join(root, p.file), text);
  const defs = PROBE_MARKS.map((_, k) => name(k)).concat(last);
  const lineOf = (n: string) => clientLine(text, text.indexOf(p.def(n).split("\n")[0] as string));
  if (p.by === "symbols") {
    const r = await ok(bridge, "document_symbols", { file: p.file });
    const got = symbolLines(r.symbols as unknown[]);
    const symbol = p.symbol ?? ((n: string) => n);
    for (const n of defs) expect(got).toContain(`${symbol(n)}@${lineOf(n)}`);
  } else if (p.by === "diagnostics") {
    const r = await ok(bridge, "diagnostics", { file: p.file });
    const lines = (r.diagnostics as { line: number }[]).map((d) => d.line);
    for (const n of defs) expect(lines).toContain(lineOf(n));
  }
  if (p.use) {
    const at = { file: p.file, line: clientLine(text, text.lastIndexOf(last)), symbol: last };
    if (p.use.tool === "definition") {
      const r = await ok(bridge, "definition", at);
      const got = (r.locations as { file: string; line: number }[]).map((l) => l.line);
      expect(got).toContain(lineOf(last));
    } else {
      expect((await ok(bridge, "hover", at)).text).not.toBeNull();
    }
  }
}

/** Python's probe, for every Python server: functions, `#` comments, a call of the last. */
export const PYTHON_PROBE: LineProbe = {
  file: "service/probe.py",
  def: (n) => `def ${n}(): pass`,
  comment: lineComment("#"),
  by: "symbols",
  use: { line: (n) => `${n}()`, tool: "definition" },
};
