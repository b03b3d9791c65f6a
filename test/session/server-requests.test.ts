/**
 * The bridge answers the server's requests (SPEC §9.1,
 * docs/LANGUAGE-SERVERS.md#unanswered-server-requests): workspace/configuration from `settings` by section (a
 * server that refuses to work until answered does not stall),
 * client/registerCapability tracked (dynamic pull diagnostics are used),
 * workspace/applyEdit refused with applied:false and nothing written, an
 * unknown request answered MethodNotFound instead of silence.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, fakeBridge, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { range } from "../support/normalize-context.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };

describe("server → client requests", () => {
  test("workspace/configuration is answered from settings by section; the stalling server then works", async () => {
    const ws = workspace({ "a.fake": "alpha\n" });
    const fake = new FakeProbe("fake");
    const settings = { fake: { format: { tabSize: 3, insertSpaces: true } }, other: { x: 1 } };
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        fake.server(
          { require_configuration: { section: "fake.format" }, responses: HOVER },
          { settings },
        ),
      ],
    });
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    expect(r.structured.text).toBe("hello");
    expect(fake.state().configurationAnswers).toEqual([[{ tabSize: 3, insertSpaces: true }]]);
  });

  test("client/registerCapability for pull diagnostics is tracked: diagnostics are pulled", async () => {
    // like pyright: it registers, then logs that it found its files
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "alpha beta\n" },
      {
        register_pull_diagnostics: true,
        log_messages: [{ text: "registered", after_ms: 0 }],
        pull_diagnostics: [
          { message: "unused name", severity: 2, line: 0, character: 6, end_character: 10 },
        ],
      },
      { ready: { log_message: "^registered$" } },
    );
    const r = await bridge.call("diagnostics", { file: "a.fake" });
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({
      diagnostics: [
        {
          file: "a.fake",
          ...range(1, 7, 1, 11),
          severity: "warning",
          message: "unused name",
          channels: ["pull"],
        },
      ],
      total: 1,
      files: ["a.fake"],
      snapshot: expect.stringMatching(/^d[0-9a-f]{20}$/),
    });
    expect(fake.state().serverRequestAnswers).toEqual([
      { method: "client/registerCapability", result: null },
    ]);
    expect(fake.requests("textDocument/diagnostic").map((q) => q.params)).toEqual([
      { textDocument: { uri: ws.uri("a.fake") } },
    ]);
  });

  test("workspace/applyEdit is answered applied:false and nothing is written", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "alpha beta\n" },
      { apply_edit_on: "textDocument/hover", responses: HOVER },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    const answers = fake.state().applyEditAnswers as { applied: boolean; failureReason: string }[];
    expect(answers.length).toBe(1);
    expect(answers[0]?.applied).toBe(false);
    expect(answers[0]?.failureReason).toContain("never applies");
    expect(ws.read("a.fake")).toBe("alpha beta\n");
  });

  test("an unknown server request gets MethodNotFound; workspaceFolders gets the root", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      { "a.fake": "alpha\n" },
      {
        server_requests: [
          { method: "fake/somethingUnheardOf", params: { x: 1 }, on: "textDocument/hover" },
          { method: "workspace/workspaceFolders", on: "textDocument/hover" },
        ],
        responses: HOVER,
      },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    const answers = fake.state().serverRequestAnswers;
    const unknown = answers.find((a) => a.method === "fake/somethingUnheardOf");
    expect(unknown?.error?.code).toBe(-32601);
    expect(unknown?.result).toBeUndefined();
    const folders = answers.find((a) => a.method === "workspace/workspaceFolders");
    expect(folders?.result).toEqual([{ uri: `file://${ws.root}`, name: "w" }]);
  });
});
