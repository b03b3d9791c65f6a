/**
 * Workspace-wide diagnostics are current (SPEC §6) on the real servers: one long-lived
 * bridge, in a git repository, answers `diagnostics {}` after an error is appended on disk
 * to an open clean file, after the error is reverted, after only a dependency changed and
 * after `git checkout` of a branch that adds errors and back. Each answer's files must be
 * exactly what a bridge started afresh says of them, the open clean file is always listed
 * with the errors its text has now, and nothing is marked unsettled.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findGopls } from "../support/built-servers.ts";
import { closeFresh, edit, startFresh } from "../support/coherence.ts";
import { ok, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";

interface Plan {
  fixture: () => string;
  /** an open file with no errors */
  clean: string;
  /** a line that is an error in `clean` */
  error: string;
  /** a file `clean` depends on, and an edit of it that breaks `clean` */
  dependency: { file: string; from: string; to: string };
}

const PLANS: Record<string, Plan> = {
  pyright: {
    fixture: () => copyFixture("python"),
    clean: "app.py",
    error: 'broken: int = "x"\n',
    dependency: {
      file: "geometry.py",
      from: "def make_circle(radius: float)",
      to: "def make_circle(radius: float, sides: int)",
    },
  },
  "typescript-language-server": {
    fixture: () => copyFixture("ts"),
    clean: "src/main.ts",
    error: 'export const broken: number = "x";\n',
    dependency: {
      file: "src/shape.ts",
      from: "constructor(readonly side: number)",
      to: "constructor(readonly side: string)",
    },
  },
  clangd: {
    fixture: () => materializeCFixture(),
    clean: "main.c",
    error: "int broken = undeclared_name;\n",
    dependency: { file: "geometry.h", from: "struct point b);", to: "struct point b, int s);" },
  },
  gopls: {
    fixture: () => copyFixture("go"),
    clean: "main.go",
    error: 'var broken int = "x"\n',
    dependency: {
      file: "shapes/shapes.go",
      from: "func TotalArea(all []Shape) int",
      to: "func TotalArea(all []Shape, scale int) int",
    },
  },
};

const FOUND: Record<string, RealServer | null> = {
  pyright: await findPyright(),
  "typescript-language-server": await findTypescriptLanguageServer(),
  clangd: await findClangd(),
  gopls: await findGopls(),
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function git(root: string, ...args: string[]): void {
  const r = Bun.spawnSync(
    [
      "git",
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@t",
      "-c",
      "advice.detachedHead=false",
      ...args,
    ],
    { cwd: root, stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

/** A repository on `main` with a branch `other` where `clean` has an error and the dependency is broken. */
function repository(plan: Plan): string {
  const root = plan.fixture();
  dirs.push(root);
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "main");
  git(root, "checkout", "-q", "-b", "other");
  appendFileSync(join(root, plan.clean), plan.error);
  edit(root, plan.dependency.file, plan.dependency.from, plan.dependency.to);
  git(root, "commit", "-q", "-am", "other");
  git(root, "checkout", "-q", "main");
  return root;
}

type Answer = Record<string, unknown> & { files: string[]; diagnostics: Diag[] };
type Diag = { file?: string; severity: string };

/** What a fresh bridge must equal: not the snapshot id, `complete`, or the `restarted` note. */
const comparable = (a: Record<string, unknown>, root: string) => {
  const { snapshot: _s, complete: _c, restarted: _r, ...rest } = a;
  return JSON.parse(JSON.stringify(rest).replaceAll(root, "<root>"));
};

for (const [name, plan] of Object.entries(PLANS)) {
  const found = FOUND[name] ?? null;
  requiredUnderCI(name, found);

  describe.skipIf(!found)(`${name}: diagnostics {} is current`, () => {
    test("after an edit, its revert, a dependency change and a branch switch", async () => {
      if (!found) return;
      const root = repository(plan);
      const steps: { name: string; change: () => void; cleanHasErrors: boolean }[] = [
        {
          name: "an error appended on disk to the open clean file",
          change: () => appendFileSync(join(root, plan.clean), plan.error),
          cleanHasErrors: true,
        },
        {
          name: "the error reverted (git checkout -- file)",
          change: () => git(root, "checkout", "-q", "--", plan.clean),
          cleanHasErrors: false,
        },
        {
          name: "only a dependency changed",
          change: () => {
            const d = plan.dependency;
            edit(root, d.file, d.from, d.to);
          },
          cleanHasErrors: true,
        },
        {
          name: "git checkout of a branch with more errors",
          change: () => {
            git(root, "checkout", "-q", "--", plan.dependency.file);
            git(root, "checkout", "-q", "other");
          },
          cleanHasErrors: true,
        },
        {
          name: "git checkout back",
          change: () => git(root, "checkout", "-q", "main"),
          cleanHasErrors: false,
        },
      ];
      const long = await startRealBridge(root, found.config);
      try {
        await ok(long, "session_status", { start: true });
        await ok(long, "diagnostics", { file: plan.clean });
        for (const step of steps) {
          step.change();
          // the truth for the workspace answer, asked for the files that answer lists
          const starting = startFresh(root, found.config);
          try {
            const all = (await ok(long, "diagnostics", {})) as Answer;
            const inside = all.files.filter((f) => !f.startsWith("/"));
            expect({ step: step.name, settled: all.settled }).toEqual({
              step: step.name,
              settled: undefined,
            });
            expect({ step: step.name, listed: inside.includes(plan.clean) }).toEqual({
              step: step.name,
              listed: true,
            });
            const cleanErrors = all.diagnostics.filter(
              (d) => d.file === plan.clean && d.severity === "error",
            ).length;
            if (cleanErrors > 0 !== step.cleanHasErrors) console.log(JSON.stringify(all, null, 1));
            expect({ step: step.name, errors: cleanErrors > 0 }).toEqual({
              step: step.name,
              errors: step.cleanHasErrors,
            });
            // the listed files' answers are exactly a fresh bridge's
            const mine = comparable(all, root);
            mine.diagnostics = (mine.diagnostics as Diag[]).filter(
              (d) => d.file !== undefined && !d.file.startsWith("/"),
            );
            mine.total = mine.diagnostics.length;
            mine.files = inside;
            const { bridge: fresh, dir } = await starting;
            const truth = await ok(fresh, "diagnostics", { files: inside });
            expect({ step: step.name, answer: mine }).toEqual({
              step: step.name,
              answer: comparable(truth, dir),
            });
          } finally {
            await closeFresh(starting);
          }
        }
      } finally {
        await long.close();
      }
    }, 600_000);
  });
}
