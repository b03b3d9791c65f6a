/**
 * SPEC §2.1: without a workspace TypeScript, typescript-language-server serves only with a
 * TypeScript that has lib/tsserver.js — the one beside it, then the `tsc` on PATH's — and
 * otherwise is left out naming what to install. Trees laid out as `npm i -g` does.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tsserverFor } from "../../../src/discovery/servable.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

/** An npm prefix with typescript-language-server and a typescript of `version` beside it. */
function prefix(version: string): { tls: string; tsc: string; root: string } {
  const ts = "lib/node_modules/typescript";
  const root = tempDir("theodolite-tree-", {
    "lib/node_modules/typescript-language-server/lib/cli.mjs": "",
    "lib/node_modules/typescript-language-server/package.json": '{"version":"5.3.0"}',
    [`${ts}/package.json`]: JSON.stringify({ name: "typescript", version }),
    [`${ts}/bin/tsc`]: "",
    ...(version.startsWith("7") ? {} : { [`${ts}/lib/tsserver.js`]: "" }),
  });
  const bin = join(root, "bin");
  mkdirSync(bin);
  symlinkSync(
    "../lib/node_modules/typescript-language-server/lib/cli.mjs",
    join(bin, "typescript-language-server"),
  );
  symlinkSync("../lib/node_modules/typescript/bin/tsc", join(bin, "tsc"));
  return { tls: join(bin, "typescript-language-server"), tsc: join(bin, "tsc"), root };
}

describe("tsserverFor", () => {
  test("a TypeScript 5 beside it (npm i -g typescript@5 typescript-language-server)", () => {
    const p = prefix("5.9.3");
    const choice = tsserverFor(p.tls, null);
    expect(choice).toMatchObject({
      found: {
        version: "5.9.3",
        tsserver: join(p.root, "lib/node_modules/typescript/lib/tsserver.js"),
      },
      from: "beside it",
    });
  });

  test("TypeScript 7 beside it, a TypeScript 5 tsc on PATH: that one", () => {
    const p = prefix("7.0.2");
    const other = prefix("5.4.5");
    const choice = tsserverFor(p.tls, other.tsc);
    expect(choice).toMatchObject({ found: { version: "5.4.5" } });
    expect("from" in choice && choice.from).toContain("of the tsc on PATH");
  });

  test("TypeScript 7 only (today's npm i -g typescript typescript-language-server): missing, naming what to install", () => {
    const p = prefix("7.0.2");
    const choice = tsserverFor(p.tls, p.tsc);
    expect("missing" in choice).toBe(true);
    const why = "missing" in choice ? choice.missing : "";
    expect(why).toContain("is TypeScript 7.0.2, without lib/tsserver.js");
    expect(why).toContain("npm i -D typescript@5");
    // the tsc on PATH is the same package: named once
    expect(why.split("7.0.2").length - 1).toBe(1);
  });

  test("nothing beside it and no tsc: missing", () => {
    const root = tempDir("theodolite-tree-", { "bin/tls": "" });
    expect(tsserverFor(join(root, "bin/tls"), null)).toMatchObject({
      missing: expect.stringContaining("none beside it"),
    });
  });
});
