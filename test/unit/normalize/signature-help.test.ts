import { describe, expect, test } from "bun:test";
import { normalizeSignatureHelp } from "../../../src/normalize/signature-help.ts";
import { fixtureContext } from "../../support/normalize-context.ts";

const { ctx } = fixtureContext({});
const signature = (help: unknown) => normalizeSignatureHelp(help, ctx);

describe("normalizeSignatureHelp", () => {
  test("label offsets become the substrings (UTF-16), documentation plain text", () => {
    const label = "draw(🎯 target: Point, n: number): void";
    const help = {
      signatures: [
        {
          label,
          documentation: { kind: "markdown", value: "Draws [it](https://x) &lt;now&gt;." },
          parameters: [{ label: [5, 21], documentation: "where" }, { label: [23, 32] }],
        },
      ],
      activeSignature: 0,
      activeParameter: 1,
    };
    expect(signature(help)).toEqual({
      signatures: [
        {
          label,
          documentation: "Draws it <now>.",
          parameters: [
            { label: "🎯 target: Point", documentation: "where" },
            { label: "n: number" },
          ],
        },
      ],
      active_signature: 0,
      active_parameter: 1,
    });
  });

  test("the active signature's own activeParameter wins; string labels kept", () => {
    const help = {
      signatures: [
        { label: "f()", parameters: [] },
        { label: "f(a, b)", parameters: [{ label: "a" }, { label: "b" }], activeParameter: 1 },
      ],
      activeSignature: 1,
      activeParameter: 0,
    };
    const got = signature(help);
    expect(got?.active_signature).toBe(1);
    expect(got?.active_parameter).toBe(1);
    expect(got?.signatures.map((s) => s.parameters.map((p) => p.label))).toEqual([[], ["a", "b"]]);
  });

  test("indexes: absent ones default as LSP says, ones outside the lists are left out", () => {
    const two = { label: "g(x, y)", parameters: [{ label: "x" }, { label: "y" }] };
    expect(signature({ signatures: [two] })).toMatchObject({
      active_signature: 0,
      active_parameter: 0,
    });
    const past = signature({ signatures: [two], activeSignature: 5, activeParameter: 2 });
    expect(past?.active_signature).toBe(0);
    expect(past?.active_parameter).toBeUndefined();
    const none = signature({ signatures: [{ label: "h()" }] });
    expect(none).toEqual({ signatures: [{ label: "h()", parameters: [] }], active_signature: 0 });
    const nulled = signature({ signatures: [two], activeParameter: null });
    expect(nulled?.active_parameter).toBeUndefined();
  });

  test("nothing there: an empty answer", () => {
    expect(signature(null)).toEqual({ signatures: [] });
    expect(signature({ signatures: [] })).toEqual({ signatures: [] });
  });

  test("untrusted: malformed signatures dropped, the active one followed; no help at all undefined", () => {
    const help = {
      signatures: [
        { label: 3 },
        { label: "bad(a)", parameters: [{ label: [4, 99] }] },
        { label: "ok(a)", parameters: [{ label: [3, 4] }] },
      ],
      activeSignature: 2,
    };
    expect(signature(help)).toEqual({
      signatures: [{ label: "ok(a)", parameters: [{ label: "a" }] }],
      active_signature: 0,
      active_parameter: 0,
    });
    const activeDropped = signature({ ...help, activeSignature: 1 });
    expect(activeDropped?.active_signature).toBeUndefined();
    expect(signature("x")).toBeUndefined();
    expect(signature({ signatures: {} })).toBeUndefined();
    expect(signature({ signatures: [{ label: "f", parameters: 1 }] })).toEqual({
      signatures: [],
    });
  });
});
