/**
 * A generated repository-shaped tree for the zero-config start-up runs: a little source
 * of the project's own (TypeScript and C) beside the bulk a real checkout carries and a
 * discovery scan must never walk — `node_modules` (installed packages) and `.git`
 * (objects) — plus a `dist/` that `.gitignore` names. `files` is the total file count.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface GeneratedTree {
  root: string;
  files: number;
  /** files outside node_modules, .git and dist: what a scan may visit */
  ownFiles: number;
}

/** Share of the files by area; the rest goes to node_modules. */
const OWN_SHARE = 0.05;
const GIT_SHARE = 0.2;
const DIST_SHARE = 0.05;
const PER_DIR = 100;

function fill(dir: string, count: number, fileName: (i: number) => string, text: string): void {
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `d${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, fileName(i)), text);
  }
}

export function generateTree(root: string, files: number): GeneratedTree {
  const own = Math.round(files * OWN_SHARE);
  const git = Math.round(files * GIT_SHARE);
  const dist = Math.round(files * DIST_SHARE);
  const vendored = files - own - git - dist - 2; // package.json and .gitignore
  writeFileSync(join(root, "package.json"), '{ "name": "generated", "private": true }\n');
  writeFileSync(join(root, ".gitignore"), "node_modules/\n/dist\n*.log\n");
  const ts = Math.ceil(own / 2);
  fill(join(root, "src"), ts, (i) => `m${i}.ts`, "export const x = 1;\n");
  fill(join(root, "native"), own - ts, (i) => `u${i}.c`, "int f(void) { return 1; }\n");
  fill(join(root, ".git", "objects"), git, (i) => `${i.toString(16).padStart(38, "0")}`, "x");
  fill(join(root, "dist"), dist, (i) => `m${i}.js`, "export const x = 1;\n");
  // packages with a nested layout, as npm installs them
  const packages = Math.max(1, Math.floor(vendored / 50));
  for (let p = 0; p < packages; p++) {
    const count = p === packages - 1 ? vendored - 50 * (packages - 1) : 50;
    fill(
      join(root, "node_modules", `pkg-${p}`, "lib"),
      count,
      (i) => `f${i}.js`,
      "module.exports = 1;\n",
    );
  }
  return { root, files, ownFiles: own + 2 };
}
