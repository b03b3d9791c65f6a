/**
 * Routing (SPEC §4.5): unknown workspace and server names, files no
 * server handles, and files two servers could answer (AmbiguousServer with
 * the candidates; passing `server` resolves it). Routing errors start nothing.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

describe("routing", () => {
  test("UnknownWorkspace, UnknownServer, NoServerForFile, AmbiguousServer", async () => {
    const ws = workspace({ "a.fake": "alpha\n", "a.other": "other\n", "b.only": "b\n" });
    const one = new FakeProbe("one");
    const two = new FakeProbe("two");
    const hover = { responses: { "textDocument/hover": { contents: "from one" } } };
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        one.server(hover, { extensions: { fake: "fake", only: "fake" } }),
        two.server({}, { extensions: { fake: "fake" } }),
      ],
    });
    const at = { line: 1, column: 1 };

    const ws404 = await bridge.call("hover", { workspace: "nope", file: "a.fake", ...at });
    expect(ws404.structured.code).toBe("UnknownWorkspace");
    expect(ws404.structured.details).toEqual({ workspace: "nope" });

    const srv404 = await bridge.call("hover", { server: "nope", file: "a.fake", ...at });
    expect(srv404.structured.code).toBe("UnknownServer");
    expect(srv404.structured.details).toEqual({ workspace: "w", server: "nope" });

    const none = await bridge.call("hover", { file: "a.other", ...at });
    expect(none.structured.code).toBe("NoServerForFile");
    expect((none.structured.details as { role: string }).role).toBe("semantics");

    const ambiguous = await bridge.call("hover", { file: "a.fake", ...at });
    expect(ambiguous.structured.code).toBe("AmbiguousServer");
    expect(ambiguous.structured.details).toEqual({ workspace: "w", candidates: ["one", "two"] });
    expect(String(ambiguous.structured.hint)).toContain("one, two");

    const diag = await bridge.call("diagnostics", { file: "a.fake" });
    expect(diag.structured.code).toBe("AmbiguousServer");

    const status = await bridge.call("session_status");
    const states = (status.structured.sessions as { state: string }[]).map((s) => s.state);
    expect(states).toEqual(["not_started", "not_started"]);

    // routed by extension when only one server matches; `server` picks among candidates
    const only = await bridge.call("hover", { file: "b.only", ...at });
    expect(only.structured.text).toBe("from one");
    const chosen = await bridge.call("hover", { server: "one", file: "a.fake", ...at });
    expect(chosen.structured.text).toBe("from one");
    expect(two.state().requests).toEqual([]);
  });

  test("session_status: a server filter must belong to the workspace filtered on", async () => {
    const ws = workspace({ "a.fake": "alpha\n" });
    const one = new FakeProbe("one");
    const two = new FakeProbe("two");
    const { bridge } = await bridgeFor({
      ws,
      servers: [one.server(), two.server()],
      workspaces: [
        { name: "w1", root: ws.root, servers: ["one"] },
        { name: "w2", root: ws.root, servers: ["two"] },
      ],
    });
    const foreign = await bridge.call("session_status", { workspace: "w1", server: "two" });
    expect(foreign.structured.code).toBe("UnknownServer");
    expect(foreign.structured.details).toEqual({ workspace: "w1", server: "two" });
    expect(foreign.structured.hint).toBe('servers for workspace "w1": one');
    const pairs = async (args: Record<string, unknown>) =>
      (
        (await bridge.call("session_status", args)).structured.sessions as Record<string, unknown>[]
      ).map((s) => [s.workspace, s.server]);
    expect(await pairs({ workspace: "w1", server: "one" })).toEqual([["w1", "one"]]);
    expect(await pairs({ server: "two" })).toEqual([["w2", "two"]]);
    const nowhere = await bridge.call("session_status", { server: "three" });
    expect(nowhere.structured.code).toBe("UnknownServer");
    expect(nowhere.structured.details).toEqual({ server: "three" });
  });
});

describe("workspace_symbols names no file", () => {
  test("servers that offer no workspace/symbol are no candidates; two that do are ambiguous", async () => {
    const ws = workspace({ "a.fake": "alpha\n", "b.json": "{}\n" });
    const code = new FakeProbe("code");
    const data = new FakeProbe("data");
    const other = new FakeProbe("other");
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        code.server({ responses: { "workspace/symbol": [] } }, { extensions: { fake: "fake" } }),
        data.server(
          {},
          { languages: ["json"], extensions: { json: "json" }, workspace_symbols: false },
        ),
      ],
    });
    const found = await bridge.call("workspace_symbols", { query: "alpha" });
    expect(found.isError, found.text).toBe(false);
    expect(code.requests("workspace/symbol")).toHaveLength(1);
    expect(data.requests("workspace/symbol")).toEqual([]);

    const both = await bridgeFor({
      ws,
      servers: [code.server({}, { extensions: { fake: "fake" } }), other.server()],
    });
    const ambiguous = await both.bridge.call("workspace_symbols", { query: "alpha" });
    expect(ambiguous.structured.code).toBe("AmbiguousServer");
    expect(ambiguous.structured.details).toEqual({ workspace: "w", candidates: ["code", "other"] });
  });
});
