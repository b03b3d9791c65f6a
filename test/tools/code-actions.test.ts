/**
 * code_actions resolving lazy actions (SPEC §4.3) against the fake server: a server that
 * refuses a resolve gets the action listed without an edit; a resolve that times out fails
 * the call instead of passing for an action without an edit.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { cleanupTempDirs, closeAllBridges } from "../support/bridge.ts";

afterAll(async () => {
  await closeAllBridges();
  cleanupTempDirs();
});

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
