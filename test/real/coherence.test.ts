/**
 * Workspace coherence on the real servers (SPEC §5): one long-lived bridge per server goes
 * through a chain of changes made on disk behind its back — an open dependency edited,
 * lines shifted above a definition, a new file never opened, a deleted file, a revert of
 * several files the way `git checkout` rewrites them — and after each change its answers
 * (diagnostics, definition targets, reference lists, rename edits) are compared with those
 * of a bridge started afresh on a copy of the same files. The revert ends with
 * rename_apply, which must edit every file a fresh bridge would.
 *
 * Stated limits, asserted as such: clangd's background index keeps a deleted file it never
 * had open (docs/SPEC.md §5.4), so its deleted-file step is not compared.
 * typescript-language-server publishes per diagnostic kind without a version or an end
 * signal (SPEC §6), and rust-analyzer's cargo check runs on its own clock in a fresh
 * bridge too; for those diagnostics both bridges are re-asked until they agree.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BridgeHandle } from "../support/bridge.ts";
import {
  answer,
  closeFresh,
  edit,
  GATED,
  type Probe,
  rewrite,
  shiftLines,
  startFresh,
} from "../support/coherence.ts";
import { ok, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  findTypescriptNative,
  fixturePath,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitForValue } from "../support/wait.ts";

interface CheckedProbe extends Probe {
  /** re-ask both bridges until they agree (a server-side timing limit, stated above) */
  eventually?: boolean;
}

interface Step {
  name: string;
  change(root: string): void;
  probes: CheckedProbe[];
}

interface Plan {
  fixture: "c" | "python" | "ts" | "rust";
  /** calls that open the files the steps depend on */
  warm: Probe[];
  steps: (original: (rel: string) => string) => Step[];
  rename: Record<string, unknown>;
}

const diag = (file: string, eventually = false): CheckedProbe => ({
  tool: "diagnostics",
  args: { file },
  ...(eventually ? { eventually } : {}),
});

function tsPlan(eventuallyDiagnostics: boolean): Plan {
  const main = "src/main.ts";
  return {
    fixture: "ts",
    warm: [
      diag(main),
      diag("src/errors.ts"),
      { tool: "hover", args: { file: "src/shape.ts", line: 14, column: 17 } },
    ],
    steps: (original) => [
      {
        name: "an open dependency edited",
        change: (r) =>
          edit(
            r,
            "src/shape.ts",
            "(shapes: readonly Shape[])",
            "(shapes: readonly Shape[], scale: number)",
          ),
        probes: [diag(main, eventuallyDiagnostics), diag("src/errors.ts", eventuallyDiagnostics)],
      },
      {
        name: "lines shifted above the definition",
        change: (r) => shiftLines(r, "src/shape.ts", 3),
        probes: [{ tool: "definition", args: { file: main, line: 4, symbol: "totalArea" } }],
      },
      {
        name: "a new file never opened",
        change: (r) =>
          writeFileSync(
            join(r, "src/extra.ts"),
            'import { totalArea } from "./shape";\n\nexport const a = totalArea([], 1);\nexport const b = totalArea([], 2);\n',
          ),
        probes: [{ tool: "references", args: { file: main, line: 1, symbol: "totalArea" } }],
      },
      {
        name: "files deleted",
        change: (r) => {
          unlinkSync(join(r, "src/extra.ts"));
          unlinkSync(join(r, "src/errors.ts"));
        },
        probes: [{ tool: "references", args: { file: main, line: 1, symbol: "totalArea" } }],
      },
      {
        name: "a revert of several files",
        change: (r) => {
          for (const f of ["src/shape.ts", "src/main.ts", "src/errors.ts"])
            rewrite(r, f, original(f));
        },
        probes: [
          {
            tool: "rename_preview",
            args: { file: main, line: 1, symbol: "totalArea", new_name: "sumArea" },
          },
          diag(main, eventuallyDiagnostics),
        ],
      },
    ],
    rename: { file: main, line: 1, symbol: "totalArea", new_name: "sumArea" },
  };
}

const PLANS: Record<string, Plan> = {
  clangd: {
    fixture: "c",
    warm: [
      diag("main.c"),
      { tool: "hover", args: { file: "geometry.h", line: 10, symbol: "manhattan" } },
      { tool: "hover", args: { file: "util.c", line: 5, symbol: "manhattan" } },
    ],
    steps: (original) => [
      {
        name: "an open dependency edited",
        change: (r) => edit(r, "geometry.h", "struct point b);", "struct point b, int scale);"),
        probes: [diag("main.c"), diag("util.c")],
      },
      {
        name: "lines shifted above the definition",
        change: (r) => shiftLines(r, "util.c", 3),
        probes: [
          { tool: "definition", args: { file: "main.c", line: 6, symbol: "manhattan" } },
          { tool: "hover", args: { file: "main.c", line: 6, symbol: "manhattan" } },
        ],
      },
      {
        name: "a revert of several files",
        change: (r) => {
          for (const f of ["geometry.h", "util.c", "main.c"]) rewrite(r, f, original(f));
        },
        probes: [
          {
            tool: "rename_preview",
            args: { file: "main.c", line: 6, symbol: "manhattan", new_name: "taxicab" },
          },
          diag("main.c"),
        ],
      },
    ],
    rename: { file: "main.c", line: 6, symbol: "manhattan", new_name: "taxicab" },
  },
  pyright: {
    fixture: "python",
    warm: [
      diag("app.py"),
      diag("errors.py"),
      { tool: "hover", args: { file: "geometry.py", line: 14, column: 5 } },
    ],
    steps: (original) => [
      {
        name: "an open dependency edited",
        change: (r) =>
          edit(
            r,
            "geometry.py",
            "def make_circle(radius: float)",
            "def make_circle(radius: float, sides: int)",
          ),
        probes: [diag("app.py"), diag("errors.py")],
      },
      {
        name: "lines shifted above the definition",
        change: (r) => shiftLines(r, "geometry.py", 3),
        probes: [{ tool: "definition", args: { file: "app.py", line: 1, symbol: "make_circle" } }],
      },
      {
        name: "a new file never opened",
        change: (r) =>
          writeFileSync(
            join(r, "extra.py"),
            "from geometry import make_circle\n\nx = make_circle(1.0, 3)\ny = make_circle(2.0, 4)\n",
          ),
        probes: [{ tool: "references", args: { file: "app.py", line: 1, symbol: "make_circle" } }],
      },
      {
        name: "files deleted",
        change: (r) => {
          unlinkSync(join(r, "extra.py"));
          unlinkSync(join(r, "errors.py"));
        },
        probes: [{ tool: "references", args: { file: "app.py", line: 1, symbol: "make_circle" } }],
      },
      {
        name: "a revert of several files",
        change: (r) => {
          for (const f of ["geometry.py", "app.py", "errors.py"]) rewrite(r, f, original(f));
        },
        probes: [
          {
            tool: "rename_preview",
            args: { file: "app.py", line: 1, symbol: "make_circle", new_name: "build_circle" },
          },
          diag("app.py"),
          diag("errors.py"),
        ],
      },
    ],
    rename: { file: "app.py", line: 1, symbol: "make_circle", new_name: "build_circle" },
  },
  "typescript-language-server": tsPlan(true),
  "typescript-native": tsPlan(false),
  "rust-analyzer": {
    fixture: "rust",
    warm: [
      diag("src/main.rs"),
      { tool: "hover", args: { file: "src/report.rs", line: 4, symbol: "total_area" } },
    ],
    steps: (original) => [
      {
        name: "an open dependency edited",
        change: (r) =>
          edit(
            r,
            "src/report.rs",
            "pub fn total_area(rects: &[Rect])",
            "pub fn total_area(rects: &[Rect], scale: u32)",
          ),
        probes: [diag("src/main.rs", true)],
      },
      {
        name: "lines shifted above the definition",
        change: (r) => shiftLines(r, "src/report.rs", 3),
        probes: [
          { tool: "definition", args: { file: "src/main.rs", line: 6, symbol: "total_area" } },
        ],
      },
      {
        name: "a new file never opened",
        change: (r) => {
          writeFileSync(
            join(r, "src/extra.rs"),
            "use crate::report::total_area;\n\npub fn a() -> u32 { total_area(&[], 1) }\npub fn b() -> u32 { total_area(&[], 2) }\n",
          );
          edit(r, "src/lib.rs", "pub mod shapes;", "pub mod shapes;\npub mod extra;");
        },
        probes: [
          { tool: "references", args: { file: "src/main.rs", line: 1, symbol: "total_area" } },
        ],
      },
      {
        name: "a revert of several files",
        change: (r) => {
          rmSync(join(r, "src/extra.rs"));
          for (const f of ["src/report.rs", "src/main.rs", "src/lib.rs"])
            rewrite(r, f, original(f));
        },
        probes: [
          { tool: "references", args: { file: "src/main.rs", line: 1, symbol: "total_area" } },
          {
            tool: "rename_preview",
            args: { file: "src/main.rs", line: 1, symbol: "total_area", new_name: "sum_area" },
          },
        ],
      },
    ],
    rename: { file: "src/main.rs", line: 1, symbol: "total_area", new_name: "sum_area" },
  },
};

const FOUND: Record<string, RealServer | null> = {
  clangd: await findClangd(),
  pyright: await findPyright(),
  "typescript-language-server": await findTypescriptLanguageServer(),
  "typescript-native": await findTypescriptNative(),
  "rust-analyzer": await findRustAnalyzer(),
};

afterAll(removeTempDirs);

/** Both answers, exact; `eventually` probes are re-asked on both until they agree. */
async function compare(
  long: BridgeHandle,
  root: string,
  fresh: BridgeHandle,
  dir: string,
  probe: CheckedProbe,
): Promise<void> {
  if (!probe.eventually) {
    const got = await answer(long, probe, root);
    expect({ probe, answer: got }).toEqual({ probe, answer: await answer(fresh, probe, dir) });
    return;
  }
  await waitForValue(
    async () => {
      const [a, b] = [await answer(long, probe, root), await answer(fresh, probe, dir)];
      return JSON.stringify(a) === JSON.stringify(b) ? true : undefined;
    },
    60_000,
    { intervalMs: 100, what: `both bridges to agree on ${JSON.stringify(probe)}` },
  );
}

for (const [name, plan] of Object.entries(PLANS)) {
  const found = FOUND[name] ?? null;
  requiredUnderCI(name, found);

  describe.skipIf(!found)(`${name}: a long-lived bridge answers like a fresh one`, () => {
    test("after each change on disk", async () => {
      if (!found) return;
      const root = plan.fixture === "c" ? materializeCFixture() : copyFixture(plan.fixture);
      const original = (rel: string) => readFileSync(join(fixturePath(plan.fixture), rel), "utf8");
      const long = await startRealBridge(root, found.config, GATED);
      try {
        await ok(long, "session_status", { start: true });
        for (const p of plan.warm) await ok(long, p.tool, p.args);
        for (const step of plan.steps(original)) {
          step.change(root);
          // the fresh bridge's copy is taken now, and it starts while the long-lived bridge
          // answers: nothing the long-lived bridge answers waits for the fresh one
          const starting = startFresh(root, found.config, GATED);
          try {
            const first: unknown[] = [];
            for (const p of step.probes) if (!p.eventually) first.push(await answer(long, p, root));
            const { bridge: fresh, dir } = await starting;
            const exact = step.probes.filter((p) => !p.eventually);
            for (const [i, p] of exact.entries()) {
              expect({ step: step.name, probe: p, answer: first[i] }).toEqual({
                step: step.name,
                probe: p,
                answer: await answer(fresh, p, dir),
              });
            }
            for (const p of step.probes.filter((q) => q.eventually)) {
              await compare(long, root, fresh, dir, p);
            }
          } finally {
            await closeFresh(starting);
          }
        }
        // the revert is on disk: rename_apply edits every file a fresh bridge's preview names
        const preview = await ok(long, "rename_preview", plan.rename);
        const applied = await ok(long, "rename_apply", plan.rename);
        expect(applied).toEqual({ ...preview, applied: true });
        const newName = plan.rename.new_name as string;
        for (const change of applied.changes as { file: string }[]) {
          expect(readFileSync(join(root, change.file), "utf8")).toContain(newName);
        }
      } finally {
        await long.close();
      }
    }, 600_000);
  });
}
