/**
 * The first answer after a project configuration change is the new configuration's
 * (SPEC §5.3): a change the server reloads on its own clock (pyright's pyrightconfig.json
 * and pyproject.toml) or never (clangd 14's compile_commands.json) restarts the session
 * (`restart_on`), which the answer says (`restarted`) and session_status counts; each
 * answer equals a bridge started afresh after the change. typescript-language-server's
 * tsconfig.json reaches tsserver through the bridge's watcher (no restart); rust-analyzer's
 * Cargo.toml restarts it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshAnswers } from "../support/coherence.ts";
import { ok, requiredUnderCI, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  materializeCFixture,
} from "../support/real-servers.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterAll(removeTempDirs);

/** The answer without what differs between two bridges by design (the snapshot digests paths). */
function comparable(r: Record<string, unknown>) {
  const { snapshot: _s, restarted: _r, ...rest } = r;
  return rest;
}

const pyright = await findPyright();
requiredUnderCI("pyright", pyright);
describe.skipIf(!pyright)("pyright: type checking mode switched", () => {
  // clean in standard mode; strict reports its untyped parameter and return
  const probe = { tool: "diagnostics", args: { file: "loose.py" } };

  for (const file of ["pyrightconfig.json", "pyproject.toml"]) {
    test(`through ${file}: strict and back, each first answer the fresh bridge's`, async () => {
      if (!pyright) return;
      const root = copyFixture("python");
      const config = (mode: string) =>
        file === "pyrightconfig.json"
          ? JSON.stringify({ include: ["."], pythonVersion: "3.11", typeCheckingMode: mode })
          : `[tool.pyright]\ninclude = ["."]\npythonVersion = "3.11"\ntypeCheckingMode = "${mode}"\n`;
      if (file === "pyproject.toml") rmSync(join(root, "pyrightconfig.json"));
      writeFileSync(join(root, "loose.py"), "def twice(x):\n    return x * 2\n");
      writeFileSync(join(root, file), config("standard"));
      const bridge = await startRealBridge(root, pyright.config);
      try {
        const standard = await ok(bridge, "diagnostics", probe.args);
        for (const mode of ["strict", "standard"]) {
          writeFileSync(join(root, file), config(mode));
          const truth = freshAnswers(root, pyright.config, [probe]);
          const r = await ok(bridge, "diagnostics", probe.args);
          expect(r.restarted).toEqual([`pyright: ${file} changed`]);
          const [fresh] = await truth;
          expect(comparable(r)).toEqual(fresh as Record<string, unknown>);
          if (mode === "strict") expect(r.total).toBeGreaterThan(standard.total as number);
          else expect(comparable(r)).toEqual(comparable(standard));
        }
        const status = await ok(bridge, "session_status");
        const [session] = status.sessions as { restarts: { count: number; last_reason: string } }[];
        expect(session?.restarts).toEqual({ count: 2, last_reason: `${file} changed` });
      } finally {
        await bridge.close();
      }
    });
  }
});

const clangd = await findClangd();
requiredUnderCI("clangd", clangd);
describe.skipIf(!clangd)("clangd 14: the compile database regenerated", () => {
  test("a -D flag switching on code with an error: the first answer is the fresh bridge's", async () => {
    if (!clangd) return;
    const root = materializeCFixture(undefined, "c");
    const main = join(root, "main.c");
    writeFileSync(
      main,
      `${readFileSync(main, "utf8")}\n#ifdef FEATURE\nint feature(void) { return missing; }\n#endif\n`,
    );
    const bridge = await startRealBridge(root, clangd.config);
    const probe = { tool: "diagnostics", args: { file: "main.c" } };
    try {
      const before = await ok(bridge, "diagnostics", probe.args);
      const db = join(root, "compile_commands.json");
      const entries = JSON.parse(readFileSync(db, "utf8")) as {
        arguments?: string[];
        command?: string;
      }[];
      const withFeature = entries.map((e) =>
        e.arguments
          ? { ...e, arguments: [...e.arguments.slice(0, 1), "-DFEATURE", ...e.arguments.slice(1)] }
          : { ...e, command: e.command?.replace(/^(\S+)/, "$1 -DFEATURE") },
      );
      writeFileSync(db, JSON.stringify(withFeature, null, 2));
      const truth = freshAnswers(root, clangd.config, [probe]);
      const r = await ok(bridge, "diagnostics", probe.args);
      expect(r.restarted).toEqual(["clangd: compile_commands.json changed"]);
      expect(r.total).toBe((before.total as number) + 1);
      const [fresh] = await truth;
      expect(comparable(r)).toEqual(fresh as Record<string, unknown>);
    } finally {
      await bridge.close();
    }
  });
});

const tls = await findTypescriptLanguageServer();
requiredUnderCI("typescript-language-server", tls);
describe.skipIf(!tls)("typescript-language-server: tsconfig.json switched", () => {
  test("noImplicitAny on and off: each first answer the fresh bridge's", async () => {
    if (!tls) return;
    const root = copyFixture("ts");
    writeFileSync(
      join(root, "src", "loose.ts"),
      "export function twice(x) {\n  return x * 2;\n}\n",
    );
    const tsconfig = join(root, "tsconfig.json");
    const original = JSON.parse(readFileSync(tsconfig, "utf8")) as {
      compilerOptions?: Record<string, unknown>;
    };
    const config = (strict: boolean) =>
      JSON.stringify({
        ...original,
        compilerOptions: { ...original.compilerOptions, strict: false, noImplicitAny: strict },
      });
    writeFileSync(tsconfig, config(false));
    const probe = { tool: "diagnostics", args: { file: "src/loose.ts" } };
    const bridge = await startRealBridge(root, tls.config);
    try {
      const loose = await ok(bridge, "diagnostics", probe.args);
      for (const strict of [true, false]) {
        writeFileSync(tsconfig, config(strict));
        const truth = freshAnswers(root, tls.config, [probe]);
        const r = await ok(bridge, "diagnostics", probe.args);
        const [fresh] = await truth;
        expect(comparable(r)).toEqual(fresh as Record<string, unknown>);
        // strict: the implicit any is an error (7006); loose: at most a suggestion
        const errors = (r.diagnostics as { severity: string }[]).filter(
          (d) => d.severity === "error",
        );
        if (strict) expect(errors.length).toBe(1);
        else expect(comparable(r)).toEqual(comparable(loose));
      }
    } finally {
      await bridge.close();
    }
  }, 300_000);
});

const ra = await findRustAnalyzer();
requiredUnderCI("rust-analyzer", ra);
describe.skipIf(!ra)("rust-analyzer: a Cargo.toml feature flipped", () => {
  test("a default feature on and off: each first answer the fresh bridge's", async () => {
    if (!ra) return;
    const root = copyFixture("rust");
    const cargoPath = join(root, "Cargo.toml");
    const cargo = readFileSync(cargoPath, "utf8");
    const features = (on: boolean) =>
      `${cargo}\n[features]\ndefault = [${on ? '"extra"' : ""}]\nextra = []\n`;
    const lib = join(root, "src", "lib.rs");
    writeFileSync(
      lib,
      `${readFileSync(lib, "utf8")}\n#[cfg(feature = "extra")]\npub fn gated() -> u32 { "g" }\n`,
    );
    writeFileSync(cargoPath, features(false));
    const probe = { tool: "diagnostics", args: { file: "src/lib.rs" } };
    const bridge = await startRealBridge(root, ra.config);
    try {
      const off = await ok(bridge, "diagnostics", probe.args);
      for (const on of [true, false]) {
        writeFileSync(cargoPath, features(on));
        const truth = freshAnswers(root, ra.config, [probe]);
        const r = await ok(bridge, "diagnostics", probe.args);
        expect(r.restarted).toEqual(["rust-analyzer: Cargo.toml changed"]);
        const [fresh] = await truth;
        expect(comparable(r)).toEqual(fresh as Record<string, unknown>);
        if (on) expect(r.total).toBeGreaterThan(off.total as number);
        else expect(comparable(r)).toEqual(comparable(off));
      }
    } finally {
      await bridge.close();
    }
  }, 300_000);
});
