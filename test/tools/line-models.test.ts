/**
 * Servers that count lines otherwise (SPEC §5, the line model), through the compiled
 * bridge: fake servers with `line_terminators` of LSP's, LF alone, clangd's (it reads at
 * LF alone and answers in LSP's lines), tsserver's and every terminator, each in another
 * encoding, answer from the text in their own lines
 * (test/fake-server/line-probe.ts). Over seeded random texts made of every terminator and
 * of astral characters, each position a client asks about is the text offset the server
 * sees (hover says which), and each location the server gives comes back at the client's
 * line and column of the same offset (references of a marker).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";
import { ALL_TERMINATORS, oracleLines, oraclePosition, widthOf } from "../support/line-oracle.ts";
import { Prng } from "../support/prng.ts";

const MARKER = "x";
const LSP = ["cr", "lf", "crlf"];
const SERVERS = [
  { name: "lsp", terminators: LSP, encoding: "utf-32" },
  { name: "lf", terminators: ["lf"], encoding: "utf-32" },
  // reads at LF alone, answers in LSP's lines: clangd
  { name: "clangd", terminators: ["lf"], answers: LSP, encoding: "utf-8" },
  { name: "tsserver", terminators: ["cr", "lf", "crlf", "u2028", "u2029"], encoding: "utf-16" },
  {
    name: "every",
    terminators: ["cr", "lf", "crlf", "u2028", "u2029", "nel", "vt", "ff"],
    encoding: "utf-8",
  },
] as const;

function answersOf(s: (typeof SERVERS)[number]): readonly string[] {
  return "answers" in s ? s.answers : s.terminators;
}

const ws = workspace();
let bridge: BridgeHandle;

beforeAll(async () => {
  const servers = SERVERS.map((s) =>
    new FakeProbe(s.name).server(
      {
        capabilities: { textDocumentSync: 1, hoverProvider: true, referencesProvider: true },
        encoding: s.encoding,
        line_probe: {
          terminators: s.terminators,
          answer_terminators: answersOf(s),
          marker: MARKER,
        },
      },
      {
        extensions: { [s.name]: "fake" },
        line_terminators: s.terminators,
        answer_line_terminators: answersOf(s),
      },
    ),
  );
  ({ bridge } = await bridgeFor({ ws, servers }));
}, 60_000);

afterAll(closeBridgesAndTempDirs);

/** Offsets a client position can name: code point boundaries outside LSP's terminators. */
function clientOffsets(text: string): number[] {
  const lines = oracleLines(text, LSP);
  const out: number[] = [];
  lines.starts.forEach((start, line) => {
    const end = lines.ends[line] as number;
    for (let at = start; ; ) {
      out.push(at);
      if (at >= end) break;
      at += String.fromCodePoint(text.codePointAt(at) as number).length;
    }
  });
  return out;
}

/** The client's 1-based line and column (code points) of an offset. */
function clientAt(text: string, offset: number): { line: number; column: number } {
  const p = oraclePosition(text, oracleLines(text, LSP), offset, "utf-32");
  return { line: p.line + 1, column: p.character + 1 };
}

function randomText(rand: Prng): string {
  const pieces = [...ALL_TERMINATORS, "a", "é", "中", "😀", MARKER, "a", MARKER];
  let text = "";
  for (let n = rand.int(1, 40); n > 0; n--) text += rand.pick(pieces);
  return text;
}

describe("every position means the same text offset to client and server", () => {
  for (const server of SERVERS) {
    test(`${server.name} (${server.encoding})`, async () => {
      const rand = new Prng(Prng.derive(0x11e, server.name));
      const file = `probe.${server.name}`;
      let asked = 0;
      for (let i = 0; i < 20; i++) {
        const text = randomText(rand);
        ws.write(file, text);
        const offsets = clientOffsets(text);
        for (let k = 0; k < 5; k++) {
          const offset = rand.pick(offsets);
          const at = clientAt(text, offset);
          const hover = await bridge.call("hover", { file, ...at });
          expect({ text, at, got: hover.structured.text }).toEqual({
            text,
            at,
            got: `offset ${offset}`,
          });
          asked++;
        }
        const refs = await bridge.call("references", { file, line: 1, column: 1 });
        const want: Record<string, unknown>[] = [];
        for (let o = text.indexOf(MARKER); o !== -1; o = text.indexOf(MARKER, o + 1)) {
          const start = clientAt(text, o);
          const end = clientAt(text, o + widthOf(MARKER, "utf-16"));
          want.push({ file, ...start, end_line: end.line, end_column: end.column });
        }
        expect({ text, got: refs.structured.locations }).toEqual({ text, got: want });
      }
      expect(asked).toBe(100);
    }, 60_000);
  }
});
