/**
 * `line_probe` (scenario.ts): the fake server counts lines in a model of its own (SPEC §5,
 * the line model) and answers from the synced text, so a test sees what the server made of
 * a position. `hover` names the text offset of the request's position (`offset N`, or
 * `offset none` when its lines hold no such position); `references` lists every
 * occurrence of the marker, each range counted in its lines and encoding. Lines and
 * columns come from test/support/line-oracle.ts, which shares no code with the bridge.
 */
import {
  type Encoding,
  oracleLines,
  oracleOffset,
  oraclePosition,
} from "../support/line-oracle.ts";

export interface LineProbe {
  /** the terminator names it breaks lines at (as `line_terminators`) */
  terminators: string[];
  /** where it breaks lines in its answers, if elsewhere (as `answer_line_terminators`) */
  answer_terminators?: string[];
  /** what `references` finds */
  marker: string;
}

interface At {
  textDocument: { uri: string };
  position: { line: number; character: number };
}

export function probeAnswer(
  probe: LineProbe,
  method: string,
  params: unknown,
  text: string,
  enc: Encoding,
): unknown {
  const lines = oracleLines(text, probe.terminators);
  const at = params as At;
  if (method === "textDocument/hover") {
    const offset = oracleOffset(text, lines, at.position, enc);
    return { contents: `offset ${offset ?? "none"}` };
  }
  if (method !== "textDocument/references") return undefined;
  const found: unknown[] = [];
  const out = oracleLines(text, probe.answer_terminators ?? probe.terminators);
  for (let i = text.indexOf(probe.marker); i !== -1; i = text.indexOf(probe.marker, i + 1)) {
    const start = oraclePosition(text, out, i, enc);
    const end = oraclePosition(text, out, i + probe.marker.length, enc);
    found.push({ uri: at.textDocument.uri, range: { start, end } });
  }
  return found;
}
