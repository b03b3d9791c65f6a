import { describe, expect, test } from "bun:test";
import { configPathFor, sharedChoice } from "../../../src/daemon/mode.ts";
import { configWith } from "../../support/shared-bridge.ts";

const config = (shared: boolean) => configWith({ shared: shared });

describe("sharedChoice (SPEC §2.2)", () => {
  test("shared unless --isolated, bridge.shared = false, or a refused zero-config directory", () => {
    expect(sharedChoice(false, config(true))).toEqual({ shared: true });
    expect(sharedChoice(true, config(true))).toEqual({ shared: false, why: "--isolated" });
    expect(sharedChoice(false, config(false))).toEqual({
      shared: false,
      why: "bridge.shared = false",
    });
    const refused = {
      ...config(true),
      discovery: { refused: { reason: "home", hint: "h" } },
    } as never;
    expect(sharedChoice(false, refused)).toMatchObject({ shared: false });
  });
});

describe("configPathFor", () => {
  test("the argument, else THEODOLITE_CONFIG, made absolute; none for zero-config", () => {
    expect(configPathFor("b.toml", {}, "/p")).toBe("/p/b.toml");
    expect(configPathFor(undefined, { THEODOLITE_CONFIG: "/etc/b.toml" }, "/p")).toBe(
      "/etc/b.toml",
    );
    expect(configPathFor(undefined, {}, "/p")).toBeUndefined();
  });
});
