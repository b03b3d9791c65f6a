/** What a JSON object is, for every reader of untrusted JSON (server answers, client messages). */
import { describe, expect, test } from "bun:test";
import { isJsonObject } from "../../../src/normalize/json.ts";

describe("isJsonObject", () => {
  test("objects only: null, arrays and scalars are not", () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ a: [1] })).toBe(true);
    for (const v of [null, undefined, [], [{}], "x", 0, true]) {
      expect([v, isJsonObject(v)]).toEqual([v, false]);
    }
  });
});
