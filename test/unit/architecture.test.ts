/**
 * docs/ARCHITECTURE.md is true of the tree (the rule it states for itself):
 *
 * - the "Folders" table has one row per folder of src/ (the row whose first cell is
 *   `src/<folder>/`, nested folders having rows of their own) and names every top-level file
 *   in a row's first cell (`src/x.ts`); a folder's row names its key files in backticks, not
 *   every file, and every file and folder a row names exists;
 * - every folder of test/ has a row in the "Tests" table, and every row names one;
 * - test/unit mirrors src/: `test/unit/<folder>/<module>[.<aspect>].test.ts` exists only for
 *   `src/<folder>/<module>.ts`, a top-level test for a top-level module or as one of the
 *   repository tests the page names, and helpers live in test/support;
 * - the "Dependency order" table lists every top-level file and folder of src/ once, and
 *   every import of src/ goes from a row to a row below it;
 * - every path the page names (in the drawing too) exists.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileGraph, folderOf, foldGraph } from "../support/import-graph.ts";

const REPO = join(import.meta.dir, "..", "..");
const SRC = join(REPO, "src");
const DOC = readFileSync(join(REPO, "docs/ARCHITECTURE.md"), "utf8");

/** The body of the `## title` section, up to the next `## `. */
function section(doc: string, title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`docs/ARCHITECTURE.md has no "## ${title}" section`);
  const rest = doc.slice(start + title.length + 5);
  const end = rest.indexOf("\n## ");
  return end === -1 ? rest : rest.slice(0, end);
}

/** A markdown table's body rows as cells (header and separator rows dropped). */
function tableRows(text: string): string[][] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("|") && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) =>
      l
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
}

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** Every file under `dir` (relative, sorted), skipping dependency and build output folders. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === "" ? name : `${rel}/${name}`;
      if (statSync(join(dir, path)).isDirectory()) {
        if (name !== "node_modules") walk(path);
      } else out.push(path);
    }
  };
  walk("");
  return out;
}

/** Folders of `dir`, hidden ones (caches) left out. */
const subfolders = (dir: string): string[] =>
  readdirSync(dir)
    .filter((n) => !n.startsWith(".") && statSync(join(dir, n)).isDirectory())
    .sort();

describe("the Folders table has a row for every folder and top-level file", () => {
  const rows = tableRows(section(DOC, "Folders"));
  /** folder (`session`, `mcp/tools`) → the backticked names of its row */
  const listed = new Map<string, Set<string>>();
  const topLevel = new Set<string>();
  const twice: string[] = [];
  for (const [first = "", concern = ""] of rows) {
    for (const path of backticked(first)) {
      if (!path.startsWith("src/")) throw new Error(`a Folders row names ${path}, not under src/`);
      if (path.endsWith("/")) {
        const folder = path.slice(4, -1);
        if (listed.has(folder)) twice.push(path);
        listed.set(folder, new Set(backticked(concern)));
      } else topLevel.add(path.slice(4));
    }
  }
  const sourceFiles = filesUnder(SRC).filter((f) => f.endsWith(".ts"));

  test("each folder of src/ has exactly one row, each top-level file is named in one", () => {
    const folders = new Set(
      sourceFiles.filter((f) => f.includes("/")).map((f) => f.slice(0, f.lastIndexOf("/"))),
    );
    expect(twice).toEqual([]);
    expect([...folders].filter((f) => !listed.has(f))).toEqual([]);
    expect(sourceFiles.filter((f) => !f.includes("/") && !topLevel.has(f))).toEqual([]);
  });

  test("every row's folder and files exist", () => {
    const stale: string[] = [];
    for (const f of topLevel) if (!existsSync(join(SRC, f))) stale.push(f);
    for (const [folder, names] of listed) {
      if (!existsSync(join(SRC, folder))) stale.push(`${folder}/`);
      for (const name of names) {
        if (!/^[\w.-]+\.ts$/.test(name)) continue; // prose in backticks: keys, commands, codes
        if (!existsSync(join(SRC, folder, name))) stale.push(`${folder}/${name}`);
      }
    }
    expect(stale).toEqual([]);
  });
});

describe("the Tests table lists every test folder", () => {
  const rows = tableRows(section(DOC, "Tests"));
  const named = rows.flatMap(([first = ""]) => backticked(first));

  test("one row per folder of test/, each naming a folder that exists", () => {
    expect(named.filter((p) => !/^test\/[\w-]+\/$/.test(p) || !existsSync(join(REPO, p)))).toEqual(
      [],
    );
    expect(named.map((p) => p.slice(5, -1)).sort()).toEqual(subfolders(join(REPO, "test")));
  });
});

describe("test/unit mirrors src/", () => {
  const UNIT = join(REPO, "test", "unit");
  const repositoryTests = new Set(
    backticked(section(DOC, "Tests")).filter((n) => /^[\w-]+\.test\.ts$/.test(n)),
  );

  test("the repository tests the page names exist at the top of test/unit", () => {
    expect([...repositoryTests].filter((t) => !existsSync(join(UNIT, t)))).toEqual([]);
  });

  test("every unit test file tests the module of src/ at the same path; nothing else lives there", () => {
    const strays = filesUnder(UNIT).filter((file) => {
      const m = /^(?:([\w/-]+)\/)?([\w-]+)(?:\.[\w-]+)?\.test\.ts$/.exec(file);
      if (!m) return true; // helpers belong in test/support
      const [, folder, module] = m;
      if (existsSync(join(SRC, folder ?? "", `${module}.ts`))) return false;
      return folder !== undefined || !repositoryTests.has(file);
    });
    expect(strays).toEqual([]);
  });

  test("every folder of test/unit is a folder of src/", () => {
    expect(subfolders(UNIT).filter((f) => !existsSync(join(SRC, f)))).toEqual([]);
  });
});

describe("the dependency order is the imports' order", () => {
  const layers = tableRows(section(DOC, "Dependency order")).map(([, names = ""]) =>
    backticked(names).map((n) => n.replace(/\/$/, "")),
  );
  const rank = new Map<string, number>();
  const twice: string[] = [];
  layers.forEach((names, i) => {
    for (const n of names) {
      if (rank.has(n)) twice.push(n);
      rank.set(n, i);
    }
  });
  const folders = foldGraph(fileGraph(SRC), folderOf);

  test("every top-level file and folder of src/ is in exactly one row", () => {
    expect(twice).toEqual([]);
    expect([...rank.keys()].sort()).toEqual([...folders.keys()].sort());
  });

  test("every import goes from a row to a row below it", () => {
    const upward: string[] = [];
    for (const [from, targets] of folders) {
      for (const to of targets) {
        if ((rank.get(to) ?? -1) <= (rank.get(from) ?? -1)) upward.push(`${from} → ${to}`);
      }
    }
    expect(upward).toEqual([]);
  });
});

test("every path the page names exists (src/-relative in the drawing, else from the root)", () => {
  const paths = new Set(
    [...DOC.matchAll(/(?<![\w/.<-])((?:[\w.-]+\/)+(?:[\w.-]*\w)?)(?![\w/<>*-])/g)]
      .map((m) => m[1]!)
      .filter(
        (p) => !p.startsWith("http") && !/^\.\.?\//.test(p) && /\.(ts|md|json|toml)$|\/$/.test(p),
      ),
  );
  const missing = [...paths].filter((p) => !existsSync(join(REPO, p)) && !existsSync(join(SRC, p)));
  expect(paths.size).toBeGreaterThan(20);
  expect(missing).toEqual([]);
});
