/** A server's files by its own `extensions` table, never by what every object inherits. */
import { describe, expect, test } from "bun:test";
import { languageOfFile } from "../../../src/config/server-files.ts";

describe("languageOfFile", () => {
  const server = { extensions: { py: "python", pyi: "python", h: "c" } };

  test("an extension of the table gives its languageId", () => {
    expect(languageOfFile(server, "src/a.py")).toBe("python");
    expect(languageOfFile(server, "/abs/types.pyi")).toBe("python");
    expect(languageOfFile(server, "inc/x.h")).toBe("c");
  });

  test("no extension, another one, or a name every object has: not the server's file", () => {
    for (const file of [
      "Makefile",
      "a.",
      ".py",
      "a.rs",
      "x.constructor",
      "x.toString",
      "x.__proto__",
    ]) {
      expect(languageOfFile(server, file)).toBeUndefined();
    }
  });
});
