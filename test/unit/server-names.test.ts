/**
 * Servers differ in presets, not in code (docs/STYLE.md): discovery, the session core and
 * the MCP surface name no preset — a quirk is a preset key or a preset hook in the preset's
 * own file (src/config/presets*.ts), so a new server is a new preset, not a new branch.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PRESETS } from "../../src/config/presets.ts";

const SRC = join(import.meta.dir, "..", "..", "src");
const FOLDERS = ["discovery", "session", "mcp"];

/** A line's code: comments and doc-comment lines dropped. */
function code(line: string): string {
  if (/^\s*(?:\*|\/\/|\/\*)/.test(line)) return "";
  return line.replace(/\/\/.*$/, "");
}

/** A preset's name as a word of its own: not `pyright` in `pyrightconfig.json` or `ruff.toml`. */
function nameWord(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  return new RegExp(`(?:^|[^\\w.-])${escaped}(?:$|[^\\w.-]|\\.(?!\\w))`);
}

const names = (text: string, name: string) => nameWord(name).test(text);

test("the check finds a preset named in code, not in a comment or a file name", () => {
  expect(names(code('if (preset.name === "gopls") {'), "gopls")).toBe(true);
  expect(names(code('hint: "for rust-analyzer: a Cargo.toml"'), "rust-analyzer")).toBe(true);
  expect(names(code("  // gopls loads packages with go"), "gopls")).toBe(false);
  expect(names(code('const f = "pyrightconfig.json";'), "pyright")).toBe(false);
  expect(names(code("x = tool?.pyright;"), "pyright")).toBe(false);
  expect(names(code('for (const n of ["ruff.toml"])'), "ruff")).toBe(false);
  expect(names(code('why: "ruff."'), "ruff")).toBe(true);
});

test("src/discovery/, src/session/ and src/mcp/ name no preset", () => {
  const presetNames = PRESETS.map((p) => [p.name, nameWord(p.name)] as const);
  expect(presetNames.length).toBeGreaterThan(20);
  const found: string[] = [];
  for (const file of new Bun.Glob(`{${FOLDERS.join(",")}}/**/*.ts`).scanSync({ cwd: SRC })) {
    readFileSync(join(SRC, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        const text = code(line);
        for (const [n, word] of presetNames)
          if (word.test(text)) found.push(`${file}:${i + 1}: ${n}`);
      });
  }
  expect(found).toEqual([]);
});
