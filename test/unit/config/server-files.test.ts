/**
 * A server's files by its own `filenames`, `extensions` and `shebangs` tables (SPEC §4.5),
 * never by what every object inherits.
 */
import { describe, expect, test } from "bun:test";
import {
  languageOfFile,
  nameMatches,
  shebangInterpreter,
} from "../../../src/config/server-files.ts";

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

describe("files by name and by #!", () => {
  const docker = {
    extensions: { dockerfile: "dockerfile" },
    filenames: { Dockerfile: "dockerfile", "Dockerfile.*": "dockerfile" },
  };
  const bash = {
    extensions: { sh: "shellscript" },
    filenames: { ".bashrc": "shellscript" },
    shebangs: { bash: "shellscript", sh: "shellscript" },
  };
  const python = { extensions: { py: "python" }, shebangs: { python: "python" } };

  test("a name, or a name pattern, wins over the extension", () => {
    expect(languageOfFile(docker, "infra/Dockerfile")).toBe("dockerfile");
    expect(languageOfFile(docker, "Dockerfile.dev")).toBe("dockerfile");
    expect(languageOfFile(docker, "app.dockerfile")).toBe("dockerfile");
    expect(languageOfFile(docker, "NotDockerfile")).toBeUndefined();
    expect(languageOfFile(bash, "/home/u/.bashrc")).toBe("shellscript");
  });

  test("a file without an extension by its interpreter; one with an extension never", () => {
    expect(languageOfFile(bash, "scripts/release", "bash")).toBe("shellscript");
    expect(languageOfFile(python, "bin/tool", "python3.11")).toBe("python");
    expect(languageOfFile(python, "bin/tool", "python3")).toBe("python");
    expect(languageOfFile(python, "tool.txt", "python")).toBeUndefined();
    expect(languageOfFile(python, "bin/tool")).toBeUndefined();
    expect(languageOfFile(bash, "x", "constructor")).toBeUndefined();
  });

  test("name patterns: * is any run of characters, the rest literal", () => {
    expect(nameMatches("Dockerfile.*", "Dockerfile.prod")).toBe(true);
    expect(nameMatches("Dockerfile.*", "Dockerfile")).toBe(false);
    expect(nameMatches("*.Dockerfile", "app.Dockerfile")).toBe(true);
    expect(nameMatches("a.b", "axb")).toBe(false);
  });

  test("the interpreter a #! line names", () => {
    expect(shebangInterpreter("#!/bin/bash")).toBe("bash");
    expect(shebangInterpreter("#! /usr/bin/python3 -u")).toBe("python3");
    expect(shebangInterpreter("#!/usr/bin/env bash")).toBe("bash");
    expect(shebangInterpreter("#!/usr/bin/env -S python3 -u\r")).toBe("python3");
    expect(shebangInterpreter("#!/usr/bin/env -u HOME LANG=C node")).toBe("node");
    expect(shebangInterpreter("#!/usr/bin/env")).toBeUndefined();
    expect(shebangInterpreter("echo hi")).toBeUndefined();
    expect(shebangInterpreter("")).toBeUndefined();
  });
});
