/**
 * Dependencies the servers read, changed after the start (SPEC §5.2): the bridge follows
 * node_modules and a virtual environment's site-packages at the package level, although
 * its own scans skip them. typescript-language-server: a package written into
 * node_modules (`Cannot find module` gone on the next call), replaced the way npm does it
 * by a version with another signature (diagnostics and hover change), removed. pyright: a
 * module and a package added to `.venv`'s site-packages, found on the next call. After
 * each change the answers equal a freshly started bridge's. typescript-language-server runs
 * through zero-config, the path users run (SPEC §2.1): what discovery configures must keep
 * tsserver on the bridge's file events.
 *
 * The roots lie three directories below `/`: tsserver watches no node_modules higher up
 * (docs/LANGUAGE-SERVERS.md#typescript-language-server-packages-in-node_modules).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BridgeHandle } from "../support/bridge.ts";
import { answer, freshAnswersWith, type Probe, type Starter } from "../support/coherence.ts";
import { ok, requiredServer, startRealBridge } from "../support/real-bridge.ts";
import {
  findPyright,
  findTypescriptLanguageServer,
  type RealServer,
} from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { startZeroConfig } from "../support/zero-config-bridge.ts";

const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);
const pyright = await requiredServer("pyright", findPyright);

afterAll(removeTempDirs);

/** A workspace `<tmp>/theodolite-deps-…/project` holding `files`. */
function project(files: Record<string, string>): { root: string; write: typeof writeFileSync } {
  const base = tempDir("theodolite-deps-");
  const root = join(base, "project");
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  return { root, write: write as unknown as typeof writeFileSync };
}

interface Step {
  name: string;
  change(): void;
  /** what the answers' text must (true) or must not (false) hold: the change took effect */
  holds: Record<string, boolean>;
}

/**
 * The long-lived bridge's answers after each step equal a fresh bridge's (node_modules
 * copied); both started by `start`, configured for `found` unless said otherwise.
 */
async function compareSteps(
  found: RealServer,
  root: string,
  probes: Probe[],
  steps: Step[],
  start: Starter = (dir) => startRealBridge(dir, found.config),
): Promise<void> {
  await using long: BridgeHandle = await start(root);
  await ok(long, "session_status", { start: true });
  for (const p of probes) await answer(long, p, root);
  for (const step of steps) {
    step.change();
    const truth = freshAnswersWith(root, start, probes, ["node_modules"]);
    const got: unknown[] = [];
    for (const p of probes) got.push(await answer(long, p, root));
    const fresh = await truth;
    expect({ step: step.name, answers: got }).toEqual({ step: step.name, answers: fresh });
    const text = JSON.stringify(got);
    for (const [fragment, held] of Object.entries(step.holds)) {
      expect({ step: step.name, fragment, held: text.includes(fragment) }).toEqual({
        step: step.name,
        fragment,
        held,
      });
    }
  }
}

describe.skipIf(!tls)("typescript-language-server: packages in node_modules", () => {
  test("a package added, replaced with another signature, removed", async () => {
    if (!tls) return;
    const { root, write } = project({
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "ES2022",
          moduleResolution: "bundler",
          target: "ES2022",
          types: [],
        },
        include: ["src"],
      }),
      "src/main.ts": 'import { greet } from "greeter";\n\nexport const s: string = greet("x");\n',
    });
    const w = (rel: string, text: string) => write(rel, text);
    const pkg = (version: string, types: string, decl: string) => {
      w("node_modules/greeter/package.json", JSON.stringify({ name: "greeter", version, types }));
      w(`node_modules/greeter/${types}`, decl);
    };
    await compareSteps(
      tls,
      root,
      [
        { tool: "diagnostics", args: { file: "src/main.ts" } },
        { tool: "hover", args: { file: "src/main.ts", line: 3, symbol: "greet" } },
      ],
      [
        {
          name: "added (node_modules made after the start)",
          change: () =>
            pkg("1.0.0", "index.d.ts", "export declare function greet(name: string): string;\n"),
          holds: { "Cannot find module": false, "greet(name: string): string": true },
        },
        {
          name: "replaced the way npm does it: moved aside, written anew, the old removed",
          change: () => {
            renameSync(join(root, "node_modules/greeter"), join(root, "node_modules/.greeter-x1"));
            pkg("2.0.0", "dist/index.d.ts", "export declare function greet(n: number): number;\n");
            rmSync(join(root, "node_modules/.greeter-x1"), { recursive: true });
          },
          holds: { "greet(n: number): number": true, "not assignable": true },
        },
        {
          name: "removed",
          change: () => rmSync(join(root, "node_modules/greeter"), { recursive: true }),
          holds: { "Cannot find module": true },
        },
      ],
      (dir) => startZeroConfig(dir, [tls]),
    );
  }, 600_000);
});

describe.skipIf(!pyright)("pyright: a virtual environment's site-packages", () => {
  test("a module and a package added, found on the next call", async () => {
    if (!pyright) return;
    const sp = ".venv/lib/python3.11/site-packages";
    const { root, write } = project({
      "pyrightconfig.json": JSON.stringify({ venvPath: ".", venv: ".venv" }),
      ".venv/pyvenv.cfg": "home = /usr/bin\nversion = 3.11.7\n",
      [`${sp}/six.py`]: "x = 1\n",
      "app.py": "import newmod\nimport newpkg\n\nv: str = newmod.f(1)\nw: str = newpkg.g()\n",
    });
    const w = (rel: string, text: string) => write(rel, text);
    await compareSteps(
      pyright,
      root,
      [
        { tool: "diagnostics", args: { file: "app.py" } },
        { tool: "hover", args: { file: "app.py", line: 4, symbol: "f" } },
      ],
      [
        {
          name: "a module added",
          change: () => w(`${sp}/newmod.py`, "def f(a: int) -> int:\n    return a\n"),
          holds: { 'Import \\"newmod\\"': false, 'Import \\"newpkg\\"': true },
        },
        {
          name: "a package added",
          change: () => w(`${sp}/newpkg/__init__.py`, "def g() -> int:\n    return 1\n"),
          holds: { 'Import \\"newpkg\\"': false, "def f(a: int) -> int": true },
        },
        {
          name: "the module replaced with another signature",
          change: () => w(`${sp}/newmod.py`, "def f(a: str) -> str:\n    return a\n"),
          holds: { "def f(a: str) -> str": true },
        },
      ],
    );
  }, 600_000);
});
