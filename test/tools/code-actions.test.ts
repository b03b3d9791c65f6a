/**
 * code_actions resolving lazy actions (SPEC §4.3) against the fake server: a server that
 * refuses a resolve gets the action listed without an edit; a resolve that times out fails
 * the call instead of passing for an action without an edit.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { closeBridgesAndTempDirs } from "../support/bridge.ts";

afterAll(closeBridgesAndTempDirs);

const ws = workspace({ "a.fake": "alpha\n" });
const LAZY = [{ title: "Lazy fix", kind: "quickfix", data: { id: 1 } }];
const RESOLVE = {
  "Lazy fix": { changes: { [ws.uri("a.fake")]: [{ range: lspRange(0, 0, 5), newText: "ALPHA" }] } },
};
const AT = { file: "a.fake", line: 1, column: 1 };

/** A semantics-only server: code_actions asks it for actions, never waits on its diagnostics. */
function lazyServer(probe: FakeProbe, extra: Record<string, unknown>) {
  return probe.server(
    {
      capabilities: { textDocumentSync: 1, codeActionProvider: { resolveProvider: true } },
      code_actions: LAZY,
      resolve: RESOLVE,
      ...extra,
    },
    { roles: ["semantics"] },
  );
}

describe("code_actions resolving an action", () => {
  test("the server refuses the resolve (an LSP error): listed without an edit", async () => {
    const probe = new FakeProbe("fake");
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        lazyServer(probe, {
          error_on: { "codeAction/resolve": { code: -32603, message: "cannot resolve" } },
        }),
      ],
    });
    const r = await bridge.call("code_actions", AT);
    expect(r.isError).toBe(false);
    expect(r.structured.actions).toEqual([
      {
        title: "Lazy fix",
        kind: "quickfix",
        preferred: false,
        has_edit: false,
        has_command: false,
      },
    ]);
    expect(probe.requests("codeAction/resolve").length).toBe(1);
  });

  test("the resolve times out: RequestTimeout, not an action without an edit", async () => {
    const probe = new FakeProbe("fake");
    const { bridge } = await bridgeFor({
      ws,
      servers: [lazyServer(probe, { response_delay_ms: { "codeAction/resolve": 60_000 } })],
      bridge: { request_timeout_ms: 1000 },
    });
    const r = await bridge.call("code_actions", AT);
    expect(r.structured.code).toBe("RequestTimeout");
    expect(r.structured.message).toContain("codeAction/resolve");
  });
});

describe("the diagnostics a code action request carries (SPEC §8.2)", () => {
  test("each with its data while within its cap; a diagnostic whose data passed it, without", async () => {
    const probe = new FakeProbe("fake");
    const small = { fix: "rename", args: [1, 2, 3] };
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        probe.server({
          capabilities: {
            textDocumentSync: 1,
            codeActionProvider: true,
            diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
          },
          code_actions: [],
          pull_diagnostics: [
            { message: "small", line: 0, character: 0, end_character: 5, data: small },
            { message: "large", line: 0, character: 0, end_character: 5, data: "d".repeat(20_000) },
          ],
        }),
      ],
    });
    const r = await bridge.call("code_actions", AT);
    expect(r.isError).toBe(false);
    const requests = probe.requests("textDocument/codeAction");
    expect(requests).toHaveLength(1);
    const params = requests[0]?.params as { context: { diagnostics: Record<string, unknown>[] } };
    const sent = params.context.diagnostics;
    expect(sent.map((d) => [d.message, d.data])).toEqual([
      ["small", small],
      ["large", undefined],
    ]);
  });
});
