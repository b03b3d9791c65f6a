/**
 * The mutation class (SPEC §7) through the compiled bridge: the
 * apply tools exist only for a gated bridge and an allowlisted client name
 * (fail closed without a name); single-use handles only for actions with an
 * edit; the gate's reasons (used, unknown, foreign_session, drift); exact
 * writes that keep CRLF and the file mode; resource operations refused; and a
 * transcript with every decision and no edit text.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";

const ws = workspace();
ws.write("a.fake", "alpha beta\r\ngamma\r\n", 0o640);
ws.write("b.fake", "uses alpha\n");
ws.write("r1.fake", "let beta = 1;\r\n");
ws.write("r2.fake", "print(beta)\n");
ws.write("c.res", "resource\n");
ws.write("u.u8", "é + é\n");
ws.write("n.nf", "note\n");
const [A, B, R1, R2, C, U, N] = [
  "a.fake",
  "b.fake",
  "r1.fake",
  "r2.fake",
  "c.res",
  "u.u8",
  "n.nf",
].map(ws.uri) as [string, string, string, string, string, string, string];

const DIAGNOSTIC = {
  message: "alpha is unused",
  severity: 2,
  line: 0,
  character: 0,
  end_character: 5,
  source: "fake",
};
const CODE_ACTIONS = [
  {
    title: "Fix alpha",
    kind: "quickfix",
    isPreferred: true,
    edit: { changes: { [A]: [{ range: lspRange(0, 0, 5), newText: "ALPHA" }] } },
  },
  { title: "Run a command", kind: "refactor", command: { title: "Do", command: "fake.do" } },
  { title: "Bare command", command: "fake.bare" },
  { title: "Lazy fix", kind: "quickfix", data: { id: 4 } },
];
const RESOLVE = {
  "Lazy fix": { changes: { [B]: [{ range: lspRange(0, 0, 4), newText: "USES" }] } },
};

const fake = new FakeProbe("fake");
const res = new FakeProbe("res");
const u8 = new FakeProbe("u8");
const nonFile = new FakeProbe("nf");
const SERVERS = [
  fake.server(
    {
      capabilities: {
        textDocumentSync: 1,
        codeActionProvider: { resolveProvider: true },
        renameProvider: { prepareProvider: true },
      },
      publish_on_sync: [DIAGNOSTIC],
      code_actions: CODE_ACTIONS,
      resolve: RESOLVE,
      prepare_rename: lspRange(0, 4, 8),
      rename_edit: {
        changes: {
          [R2]: [{ range: lspRange(0, 6, 10), newText: "delta" }],
          [R1]: [{ range: lspRange(0, 4, 8), newText: "delta" }],
        },
      },
    },
    { extensions: { fake: "fake" } },
  ),
  res.server(
    {
      capabilities: { textDocumentSync: 1, renameProvider: true },
      rename_edit: {
        documentChanges: [
          {
            textDocument: { uri: C, version: null },
            edits: [{ range: lspRange(0, 0, 8), newText: "RES" }],
          },
          { kind: "create", uri: ws.uri("created.res") },
        ],
      },
    },
    { extensions: { res: "fake" }, roles: ["semantics"] },
  ),
  u8.server(
    {
      encoding: "utf-8",
      capabilities: { textDocumentSync: 1, renameProvider: true },
      // "é + é" in UTF-8 bytes: é is 0..2, the second é 5..7
      rename_edit: {
        changes: {
          [U]: [
            { range: lspRange(0, 0, 2), newText: "e" },
            { range: lspRange(0, 5, 7), newText: "e" },
          ],
        },
      },
    },
    { extensions: { u8: "fake" }, roles: ["semantics"] },
  ),
  nonFile.server(
    {
      capabilities: { textDocumentSync: 1, renameProvider: true },
      rename_edit: {
        changes: {
          [N]: [{ range: lspRange(0, 0, 4), newText: "memo" }],
          "untitled:Scratch-1": [{ range: lspRange(0, 0, 4), newText: "memo" }],
        },
      },
    },
    { extensions: { nf: "fake" }, roles: ["semantics"] },
  ),
];
const GATED = { mutation: "gated", mutation_allowlist: ["ci-gate"] };
const APPLY_TOOLS = ["code_action_apply", "rename_apply", "formatting_apply"];

afterAll(closeBridgesAndTempDirs);

async function toolNames(bridge: BridgeHandle): Promise<string[]> {
  return (await bridge.client.listTools()).tools.map((t) => t.name);
}

async function decisions(bridge: BridgeHandle): Promise<Record<string, unknown>[]> {
  const r = await bridge.call("session_status");
  return r.structured.gate_decisions as Record<string, unknown>[];
}

const AT = { file: "a.fake", line: 1, column: 1 };

async function handleFor(bridge: BridgeHandle, title: string): Promise<string> {
  const r = await bridge.call("code_actions", AT);
  const action = (r.structured.actions as { title: string; handle?: string }[]).find(
    (a) => a.title === title,
  );
  if (!action?.handle) throw new Error(`no handle for ${title}: ${r.text}`);
  return action.handle;
}

describe("without the apply class", () => {
  const cases: [string, Record<string, unknown>, string, string | null][] = [
    ["mutation off", {}, "theodolite-tests", "mutation_off"],
    ["a client name not on the allowlist", GATED, "someone-else", "not_allowlisted"],
    // the SDK accepts an empty clientInfo.name; the bridge treats it as no name (fail closed)
    ["a gated bridge and a client without a name", GATED, "", "no_identity"],
  ];
  for (const [label, bridgeTable, clientName, reason] of cases) {
    test(`${label}: apply tools not listed, calls UnsupportedMethod, refusal recorded`, async () => {
      const { bridge } = await bridgeFor({ ws, servers: SERVERS, bridge: bridgeTable, clientName });
      const names = await toolNames(bridge);
      for (const t of APPLY_TOOLS) expect(names).not.toContain(t);
      expect(names).toContain("code_actions");
      const listing = await bridge.call("code_actions", AT);
      expect(listing.isError).toBe(false);
      const actions = listing.structured.actions as Record<string, unknown>[];
      expect(actions.length).toBe(4);
      for (const a of actions) expect(a.handle).toBeUndefined();
      const apply = await bridge.call("code_action_apply", { handle: `ca_${"A".repeat(43)}` });
      expect(apply.structured.code).toBe("UnsupportedMethod");
      const rename = await bridge.call("rename_apply", {
        file: "r1.fake",
        line: 1,
        symbol: "beta",
        new_name: "delta",
      });
      expect(rename.structured.code).toBe("UnsupportedMethod");
      const recorded = (await decisions(bridge)).map((d) => [d.tool, d.client, d.allow, d.reason]);
      const client = clientName === "" ? null : clientName;
      expect(recorded).toEqual([
        ["code_action_apply", client, false, reason],
        ["rename_apply", client, false, reason],
      ]);
      const status = await bridge.call("session_status");
      expect((status.structured.bridge as { client: unknown }).client).toBe(client);
      expect(ws.read("a.fake")).toBe("alpha beta\r\ngamma\r\n");
      expect(ws.read("r1.fake")).toBe("let beta = 1;\r\n");
    });
  }
});

describe("gated, allowlisted client", () => {
  let bridge: BridgeHandle;
  beforeAll(async () => {
    ({ bridge } = await bridgeFor({ ws, servers: SERVERS, bridge: GATED, clientName: "ci-gate" }));
  });

  test("the apply tools are listed", async () => {
    const names = await toolNames(bridge);
    expect(names.slice(-3)).toEqual(APPLY_TOOLS);
  });

  test("code_actions: handles only for actions with an edit; overlapping diagnostics sent as context", async () => {
    const r = await bridge.call("code_actions", AT);
    expect(r.isError).toBe(false);
    const actions = r.structured.actions as Record<string, unknown>[];
    const handle = expect.stringMatching(/^ca_[A-Za-z0-9_-]{43}$/);
    expect(actions).toEqual([
      {
        title: "Fix alpha",
        kind: "quickfix",
        preferred: true,
        has_edit: true,
        has_command: false,
        handle,
      },
      {
        title: "Run a command",
        kind: "refactor",
        preferred: false,
        has_edit: false,
        has_command: true,
      },
      { title: "Bare command", preferred: false, has_edit: false, has_command: true },
      {
        title: "Lazy fix",
        kind: "quickfix",
        preferred: false,
        has_edit: true,
        has_command: false,
        handle,
      },
    ]);
    expect(r.structured.total).toBe(4);
    expect(r.text).not.toContain("ALPHA");
    const sent = fake.requests("textDocument/codeAction").at(-1)?.params as {
      context: { diagnostics: unknown[] };
    };
    expect(sent.context.diagnostics).toEqual([
      { range: lspRange(0, 0, 5), message: "alpha is unused", severity: 2, source: "fake" },
    ]);
  });

  test("code_action_apply writes exactly the edit, keeping CRLF and the file mode; the server is resynced", async () => {
    const handle = await handleFor(bridge, "Fix alpha");
    const r = await bridge.call("code_action_apply", { handle });
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({ applied: true, changes: [{ file: "a.fake", edits: 1 }] });
    expect(ws.read("a.fake")).toBe("ALPHA beta\r\ngamma\r\n");
    expect(statSync(ws.path("a.fake")).mode & 0o7777).toBe(0o640);
    await fake.until(
      (s) => (s.documents[A]?.text === "ALPHA beta\r\ngamma\r\n" ? true : undefined),
      "the applied content to reach the server",
    );

    const again = await bridge.call("code_action_apply", { handle });
    expect(again.structured.code).toBe("GateDenied");
    expect(again.structured.details).toEqual({ reason: "used" });
  });

  test("a forged handle is unknown; any other field is PayloadRejected", async () => {
    for (const forged of [`ca_${"A".repeat(43)}`, "not-a-handle"]) {
      const r = await bridge.call("code_action_apply", { handle: forged });
      expect(r.structured.code).toBe("GateDenied");
      expect(r.structured.details).toEqual({ reason: "unknown" });
    }
    const handle = await handleFor(bridge, "Lazy fix");
    const payload = await bridge.call("code_action_apply", {
      handle,
      edit: { changes: { [B]: [{ range: lspRange(0, 0, 4), newText: "EVIL" }] } },
    });
    expect(payload.structured.code).toBe("PayloadRejected");
    expect(payload.structured.details).toEqual({ fields: ["edit"], count: 1 });
    expect(ws.read("b.fake")).toBe("uses alpha\n");
  });

  test("a target changed after the listing: drift, nothing written", async () => {
    const handle = await handleFor(bridge, "Lazy fix");
    ws.write("b.fake", "still uses alpha\n");
    const r = await bridge.call("code_action_apply", { handle });
    expect(r.structured.code).toBe("GateDenied");
    expect(r.structured.details).toEqual({ reason: "drift" });
    expect(ws.read("b.fake")).toBe("still uses alpha\n");
  });

  test("two concurrent applies of one handle: exactly one succeeds", async () => {
    const handle = await handleFor(bridge, "Lazy fix");
    const results = await Promise.all([
      bridge.call("code_action_apply", { handle }),
      bridge.call("code_action_apply", { handle }),
    ]);
    const ok = results.filter((r) => !r.isError);
    const denied = results.filter((r) => r.isError);
    expect(ok.length).toBe(1);
    expect(ok[0]?.structured).toEqual({ applied: true, changes: [{ file: "b.fake", edits: 1 }] });
    expect(denied.length).toBe(1);
    expect(denied[0]?.structured.details).toEqual({ reason: "used" });
    expect(ws.read("b.fake")).toBe("USESl uses alpha\n");
  });

  test("a handle from before session_restart is foreign_session", async () => {
    const handle = await handleFor(bridge, "Lazy fix");
    const restarted = await bridge.call("session_restart", { server: "fake" });
    expect(restarted.structured.state).toBe("ready");
    const r = await bridge.call("code_action_apply", { handle });
    expect(r.structured.code).toBe("GateDenied");
    expect(r.structured.details).toEqual({ reason: "foreign_session" });
    expect(ws.read("b.fake")).toBe("USESl uses alpha\n");
  });

  test("rename_preview shows, rename_apply writes every file", async () => {
    const args = { file: "r1.fake", line: 1, symbol: "beta", new_name: "delta" };
    const changes = [
      {
        file: "r1.fake",
        edits: [{ line: 1, column: 5, end_line: 1, end_column: 9, new_text: "delta" }],
      },
      {
        file: "r2.fake",
        edits: [{ line: 1, column: 7, end_line: 1, end_column: 11, new_text: "delta" }],
      },
    ];
    const preview = await bridge.call("rename_preview", args);
    const edit_set = preview.structured.edit_set;
    expect(edit_set).toMatch(/^[0-9a-f]{64}$/);
    expect(preview.structured).toEqual({ applied: false, new_name: "delta", edit_set, changes });
    expect(ws.read("r1.fake")).toBe("let beta = 1;\r\n");
    // the same edit set on the same texts: the same digest (SPEC §7.3)
    const applied = await bridge.call("rename_apply", args);
    expect(applied.structured).toEqual({ applied: true, new_name: "delta", edit_set, changes });
    expect(ws.read("r1.fake")).toBe("let delta = 1;\r\n");
    expect(ws.read("r2.fake")).toBe("print(delta)\n");
  });

  test("rename_apply reports the edits in the positions of the text it edited (non-ASCII, utf-8 server)", async () => {
    const args = { file: "u.u8", line: 1, column: 1, new_name: "e" };
    const changes = [
      {
        file: "u.u8",
        edits: [
          { line: 1, column: 1, end_line: 1, end_column: 2, new_text: "e" },
          { line: 1, column: 5, end_line: 1, end_column: 6, new_text: "e" },
        ],
      },
    ];
    const preview = await bridge.call("rename_preview", args);
    const edit_set = preview.structured.edit_set;
    expect(preview.structured).toEqual({ applied: false, new_name: "e", edit_set, changes });
    const applied = await bridge.call("rename_apply", { ...args, edit_set });
    expect(applied.structured).toEqual({ applied: true, new_name: "e", edit_set, changes });
    expect(ws.read("u.u8")).toBe("e + e\n");
  });

  test("a rename with a CreateFile operation is ResourceOperationRejected and writes nothing", async () => {
    const args = { file: "c.res", line: 1, column: 1, new_name: "RES" };
    for (const tool of ["rename_preview", "rename_apply"]) {
      const r = await bridge.call(tool, args);
      expect([tool, r.structured.code]).toEqual([tool, "ResourceOperationRejected"]);
    }
    expect(ws.read("c.res")).toBe("resource\n");
    expect(existsSync(ws.path("created.res"))).toBe(false);
  });

  test("a rename that edits a non-file document is EditInvalid and writes nothing", async () => {
    const args = { file: "n.nf", line: 1, column: 1, new_name: "memo" };
    for (const tool of ["rename_preview", "rename_apply"]) {
      const r = await bridge.call(tool, args);
      expect([tool, r.structured.code]).toEqual([tool, "EditInvalid"]);
      expect(r.structured.details).toEqual({ uri: "untitled:Scratch-1" });
    }
    expect(ws.read("n.nf")).toBe("note\n");
  });

  test("the transcript records every decision with its reason and no edit text", async () => {
    const list = await decisions(bridge);
    expect(list.map((d) => [d.tool, d.allow, d.reason])).toEqual([
      ["code_action_apply", true, "allowed"],
      ["code_action_apply", false, "used"],
      ["code_action_apply", false, "unknown"],
      ["code_action_apply", false, "unknown"],
      ["code_action_apply", false, "drift"],
      ["code_action_apply", true, "allowed"],
      ["code_action_apply", false, "used"],
      ["code_action_apply", false, "foreign_session"],
      ["rename_apply", true, "allowed"],
      ["rename_apply", true, "allowed"],
    ]);
    for (const d of list) {
      expect(Object.keys(d).sort()).toEqual(
        ["allow", "at", "client", "files", "reason", "seq", "server", "tool", "workspace"].sort(),
      );
      expect(d.client).toBe("ci-gate");
    }
    const text = JSON.stringify(list);
    for (const secret of ["ALPHA", "USES", "delta", "ca_", "newText"]) {
      expect(text).not.toContain(secret);
    }
  });
});
