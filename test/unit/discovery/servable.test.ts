/**
 * SPEC §2.1: a server that was found but cannot serve here is left out, saying what to
 * install — gopls without `go` on PATH, typescript-language-server without a TypeScript it
 * can drive (the search itself: tsserver.test.ts).
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { join } from "node:path";
import type { Preset } from "../../../src/config/presets.ts";
import { findPreset } from "../../../src/config/presets.ts";
import { servable } from "../../../src/discovery/servable.ts";
import { NONE, withTypescript } from "../../support/discovery-choice.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const preset = (name: string) => ({ preset: findPreset(name) as Preset });
const found = (command: string) => ({ found: { command, version: "1.0", versionCommand: null } });

test("gopls needs `go` on PATH", () => {
  const empty = tempDir("theodolite-tree-", { "x.txt": "" });
  const left = servable(preset("gopls"), found("/bin/gopls"), NONE, empty);
  expect(left).toEqual({
    missing: expect.stringContaining("no `go` on PATH, which it loads packages with"),
  });
  const bin = tempDir("theodolite-tree-", { go: "#!/bin/sh\n" });
  chmodSync(join(bin, "go"), 0o755);
  expect(servable(preset("gopls"), found("/bin/gopls"), NONE, bin)).toEqual(found("/bin/gopls"));
});

test("typescript-language-server with the workspace's TypeScript 5 serves as it is", () => {
  const tls = found("/bin/typescript-language-server");
  const ts5 = withTypescript("5.9.3");
  expect(servable(preset("typescript-language-server"), tls, ts5, "")).toEqual(tls);
  // without it, and with nothing beside it: left out, naming what to install
  expect(servable(preset("typescript-language-server"), tls, NONE, "")).toEqual({
    missing: expect.stringContaining("npm i -D typescript@5"),
  });
});

test("what was not found stays as it is", () => {
  expect(servable(preset("gopls"), { missing: "not found" }, NONE, "")).toEqual({
    missing: "not found",
  });
  expect(servable(preset("gopls"), undefined, NONE, "")).toBeUndefined();
});
