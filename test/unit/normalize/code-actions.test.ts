import { describe, expect, test } from "bun:test";
import { canonicalJson } from "../../../src/normalize/cap.ts";
import { summarizeCodeAction } from "../../../src/normalize/code-actions.ts";

describe("summarizeCodeAction", () => {
  test("a bare Command has a command and no edit", () => {
    expect(summarizeCodeAction({ title: "Organize imports", command: "ts.organize" })).toEqual({
      title: "Organize imports",
      preferred: false,
      has_edit: false,
      has_command: true,
    });
  });

  test("a preferred quick-fix with an edit, keys in a fixed order", () => {
    const summary = summarizeCodeAction({
      title: "Fix",
      kind: "quickfix",
      isPreferred: true,
      edit: { changes: {} },
    });
    expect(canonicalJson(summary)).toBe(
      '{"title":"Fix","kind":"quickfix","preferred":true,"has_edit":true,"has_command":false}',
    );
  });

  test("a disabled action carries its reason", () => {
    expect(
      summarizeCodeAction({
        title: "Extract",
        kind: "refactor.extract",
        disabled: { reason: "no selection" },
        command: { title: "extract", command: "x.extract" },
      }),
    ).toEqual({
      title: "Extract",
      kind: "refactor.extract",
      preferred: false,
      disabled: "no selection",
      has_edit: false,
      has_command: true,
    });
  });

  test("an action that needs resolving has neither edit nor command yet", () => {
    expect(summarizeCodeAction({ title: "Lazy", data: { id: 1 } })).toEqual({
      title: "Lazy",
      preferred: false,
      has_edit: false,
      has_command: false,
    });
  });
});
