/**
 * How a file indents, pure: the formatting options the bridge sends a formatter (SPEC §4.1,
 * `formatting`). A formatter that reads them (tsserver through typescript-language-server)
 * re-indents the whole file to them, so they follow the file rather than a fixed default:
 * tabs when its first indented line starts with a tab; else spaces, as many as the first
 * line indented below an unindented one (not a comment's ` * ` continuation); 4 spaces for
 * a file with no indented line. gofmt, rustfmt and clang-format follow their own
 * configuration and ignore them.
 */

export interface Indentation {
  tabSize: number;
  insertSpaces: boolean;
}

const DEFAULT: Indentation = Object.freeze({ tabSize: 4, insertSpaces: true });
const MAX_TAB_SIZE = 16;
const LEADING = /^[ \t]*/;

export function indentationOf(text: string): Indentation {
  let previousIndent: number | undefined;
  let seenTab = false;
  let seenSpace = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const lead = (LEADING.exec(line) as RegExpExecArray)[0];
    const rest = line.slice(lead.length);
    if (rest.length === 0) continue;
    if (lead.length > 0 && !seenTab && !seenSpace) {
      if (lead.startsWith("\t")) seenTab = true;
      else seenSpace = true;
    }
    if (seenTab) return { tabSize: DEFAULT.tabSize, insertSpaces: false };
    if (previousIndent === 0 && /^ +$/.test(lead) && !rest.startsWith("*")) {
      return { tabSize: Math.min(lead.length, MAX_TAB_SIZE), insertSpaces: true };
    }
    previousIndent = lead.length;
  }
  return { ...DEFAULT };
}
