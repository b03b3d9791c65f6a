/**
 * A generated TypeScript workspace for the overhead runs: `files` modules under src/modK/
 * and one hub module. Module i declares an interface, a class with a method and a function
 * fn_NNNN that calls the next module's function (definition crosses files). Three modules
 * in ten import and call hub() — two references each — so references of hub() count
 * 1 + 0.6 × files locations: 61 on 100 files, 601 on 1,000.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface GeneratedTs {
  root: string;
  files: number;
  /** workspace-relative path of module `i` */
  modulePath(i: number): string;
  /** locations references of hub() returns, declaration included */
  hubReferences: number;
}

const pad = (i: number) => String(i).padStart(4, "0");
const fn = (i: number) => `fn_${pad(i)}`;
const MODULES = 10;
const usesHub = (i: number) => i % 10 < 3;

export function generateTsWorkspace(root: string, files: number): GeneratedTs {
  const dir = (i: number) => `src/mod${i % MODULES}`;
  const modulePath = (i: number) => `${dir(i)}/${fn(i)}.ts`;
  for (let m = 0; m < MODULES; m++) mkdirSync(join(root, "src", `mod${m}`), { recursive: true });
  writeFileSync(
    join(root, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "es2022", moduleResolution: "bundler", noEmit: true }, include: ["src"] }, null, 2)}\n`,
  );
  writeFileSync(
    join(root, "src", "hub.ts"),
    "/** The function every third module of ten calls. */\nexport function hub(x: number): number {\n  return x * 2;\n}\n",
  );
  let hubReferences = 1;
  for (let i = 0; i < files; i++) {
    const next = (i + 1) % files;
    const nextImport = `../mod${next % MODULES}/${fn(next)}`;
    const hub = usesHub(i);
    if (hub) hubReferences += 2;
    const text = [
      ...(hub ? ['import { hub } from "../hub";'] : []),
      `import { ${fn(next)} } from "${nextImport}";`,
      "",
      `/** A record of module ${i}. */`,
      `export interface Record_${pad(i)} {`,
      "  id: number;",
      "  value: number;",
      "}",
      "",
      `export class Widget_${pad(i)} {`,
      `  constructor(readonly record: Record_${pad(i)}) {}`,
      "",
      "  total(): number {",
      "    return this.record.id + this.record.value;",
      "  }",
      "}",
      "",
      `/** Function ${i}: calls the next module's function${hub ? " and hub()" : ""}. */`,
      `export function ${fn(i)}(x: number): number {`,
      `  if (x <= 0) return ${hub ? "hub(x)" : "x"};`,
      `  return ${fn(next)}(x - 1) + new Widget_${pad(i)}({ id: ${i}, value: x }).total();`,
      "}",
      "",
    ];
    writeFileSync(join(root, modulePath(i)), text.join("\n"));
  }
  return { root, files, modulePath, hubReferences };
}
