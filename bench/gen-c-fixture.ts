/**
 * A generated C workspace for the large-workspace overhead runs: `files` translation units
 * under src/modK/, one header declaring every function, and a compile_commands.json with
 * absolute paths. Every unit defines fn_NNNN, which calls hub() and two other units'
 * functions, so definition crosses files and references of hub() span the workspace.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface GeneratedC {
  root: string;
  files: number;
  /** workspace-relative path of unit `i` */
  unitPath(i: number): string;
}

const name = (i: number) => `fn_${String(i).padStart(4, "0")}`;
const MODULES = 10;

function compiler(): string {
  return Bun.which("cc") ?? Bun.which("gcc") ?? Bun.which("clang") ?? "cc";
}

export function generateCWorkspace(root: string, files: number): GeneratedC {
  const unitPath = (i: number) => `src/mod${i % MODULES}/${name(i)}.c`;
  mkdirSync(join(root, "include"), { recursive: true });
  for (let m = 0; m < MODULES; m++) mkdirSync(join(root, "src", `mod${m}`), { recursive: true });

  const header = [
    "#ifndef API_H",
    "#define API_H",
    "",
    "struct record {",
    "  int id;",
    "  int value;",
    "};",
    "",
    "int hub(int x);",
    ...Array.from({ length: files }, (_, i) => `int ${name(i)}(int x);`),
    "",
    "#endif",
    "",
  ];
  writeFileSync(join(root, "include", "api.h"), header.join("\n"));
  writeFileSync(
    join(root, "src", "hub.c"),
    '#include "api.h"\n\nint hub(int x) {\n  return x * 2;\n}\n',
  );

  const cc = compiler();
  const units = ["src/hub.c"];
  for (let i = 0; i < files; i++) {
    const next = name((i + 1) % files);
    const other = name((i * 7 + 3) % files);
    const text = [
      '#include "api.h"',
      "",
      `int ${name(i)}(int x) {`,
      `  struct record r = {${i}, x};`,
      `  if (x <= 0) return hub(r.value);`,
      `  return hub(r.value) + ${next}(x - 1) + ${other}(x - 2);`,
      "}",
      "",
    ];
    writeFileSync(join(root, unitPath(i)), text.join("\n"));
    units.push(unitPath(i));
  }
  const commands = units.map((rel) => ({
    directory: root,
    file: join(root, rel),
    arguments: [cc, "-std=c11", "-Wall", "-Iinclude", "-c", rel, "-o", `${rel}.o`],
  }));
  writeFileSync(join(root, "compile_commands.json"), JSON.stringify(commands, null, 1));
  return { root, files, unitPath };
}

/**
 * One large C file of about `bytes` bytes for the paging benchmark: functions of ~1 KB
 * (so 10 MB holds ~10,000 of them), every fifth preceded by a struct with three fields
 * (symbols with children), with a compile_commands.json naming it. Most of each KB is a
 * block comment, so a server parses the file in seconds: the answer, not the parse, is
 * what is measured.
 */
export function generateLargeCFile(root: string, bytes: number): { file: string; symbols: number } {
  mkdirSync(root, { recursive: true });
  const parts: string[] = ["#include <stddef.h>\n\n"];
  let size = parts[0]?.length ?? 0;
  let symbols = 0;
  for (let i = 0; size < bytes; i++) {
    const id = String(i).padStart(6, "0");
    let text = "";
    if (i % 5 === 0) {
      text += `struct rec_${id} {\n  int id;\n  long value;\n  const char *label;\n};\n\n`;
      symbols++;
    }
    const comment = Array.from(
      { length: 12 },
      (_, k) => ` * step ${k}: the accumulator is multiplied by ${k + 3} and mixed with the input`,
    );
    text += `/*\n * function ${id}\n${comment.join("\n")}\n */\nint fn_${id}(int x) {\n  return x * ${(i % 97) + 1};\n}\n\n`;
    symbols++;
    parts.push(text);
    size += text.length;
  }
  const file = join(root, "big.c");
  writeFileSync(file, parts.join(""));
  const cc = compiler();
  writeFileSync(
    join(root, "compile_commands.json"),
    JSON.stringify([{ directory: root, file, arguments: [cc, "-std=c11", "-c", "big.c"] }]),
  );
  return { file: "big.c", symbols };
}
