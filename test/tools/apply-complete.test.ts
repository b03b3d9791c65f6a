/**
 * The apply tools never write an edit set they cannot prove complete (SPEC §7.3), against
 * the fake server: a rename that leaves a call site in a file created after the server
 * started is refused naming it (the server's own definition places it at the symbol), one
 * it resolves elsewhere is not; changed files that cannot all be open, a server without
 * definitions, an unwatched directory and files changed after a code_actions listing are
 * refused too. Every refusal is EditIncomplete with the files named, nothing written.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";

afterAll(closeBridgesAndTempDirs);

const GATED = { mutation: "gated", mutation_allowlist: ["ci-gate"] };
const DEF = "def compute\n"; // `compute` at 4..11
const CALL = "call compute\n"; // `compute` at 5..12

/** A fake server for extension `ext`: renames lib and use1 only; its definition is `definition`. */
function renamer(
  probe: FakeProbe,
  ext: string,
  ws: ReturnType<typeof workspace>,
  definition: unknown,
  extra: Record<string, unknown> = {},
) {
  const lib = ws.uri(`lib.${ext}`);
  return probe.server(
    {
      capabilities: {
        textDocumentSync: 1,
        renameProvider: true,
        codeActionProvider: true,
        ...(definition === undefined ? {} : { definitionProvider: true }),
      },
      publish_on_sync: [],
      rename_edit: {
        changes: {
          [lib]: [{ range: lspRange(0, 4, 11), newText: "calc" }],
          [ws.uri(`use1.${ext}`)]: [{ range: lspRange(0, 5, 12), newText: "calc" }],
        },
      },
      code_actions: [
        {
          title: "Rename the definition",
          kind: "refactor",
          edit: { changes: { [lib]: [{ range: lspRange(0, 4, 11), newText: "calc" }] } },
        },
      ],
      responses: { "textDocument/definition": definition ?? null },
    },
    // the fake reads no file (`reads = []`), so no change restarts it (SPEC §5.3): a new
    // file it leaves out is what the proof of SPEC §7.3 must catch
    { extensions: { [ext]: "fake" }, roles: ["semantics"], ...extra },
  );
}

function seed(ws: ReturnType<typeof workspace>, ext: string) {
  ws.write(`lib.${ext}`, DEF);
  ws.write(`use1.${ext}`, CALL);
}

async function refusal(bridge: BridgeHandle, tool: string, args: Record<string, unknown>) {
  const r = await bridge.call(tool, args);
  expect(r.isError).toBe(true);
  return r.structured as {
    code: string;
    message: string;
    hint: string;
    details: Record<string, unknown>;
  };
}

const RENAME = (ext: string) => ({
  file: `lib.${ext}`,
  line: 1,
  symbol: "compute",
  new_name: "calc",
});

describe("rename_apply against a server whose rename leaves a file", () => {
  const ws = workspace();
  const [left, other, blind] = [
    new FakeProbe("left"),
    new FakeProbe("other"),
    new FakeProbe("blind"),
  ];
  for (const ext of ["lft", "oth", "bld"]) seed(ws, ext);
  let bridge: BridgeHandle;

  test("a new file whose call the server places at the renamed symbol: refused naming it, nothing written", async () => {
    ({ bridge } = await bridgeFor({
      ws,
      servers: [
        renamer(left, "lft", ws, { uri: ws.uri("lib.lft"), range: lspRange(0, 4, 11) }),
        renamer(other, "oth", ws, { uri: ws.uri("new.oth"), range: lspRange(0, 0, 4) }),
        renamer(blind, "bld", ws, undefined),
      ],
      bridge: GATED,
      clientName: "ci-gate",
    }));
    for (const ext of ["lft", "oth", "bld"]) {
      const preview = await bridge.call("rename_preview", RENAME(ext));
      expect(preview.isError).toBe(false);
    }
    // created after the servers started: changed in this session, and it calls compute
    ws.write("new.lft", `// new\n${CALL}`);
    const e = await refusal(bridge, "rename_apply", RENAME("lft"));
    expect(e.code).toBe("EditIncomplete");
    expect(e.details).toEqual({
      reason: "left_out",
      files: ["new.lft"],
      count: 1,
      occurrences: [{ file: "new.lft", line: 2, column: 6 }],
    });
    expect(e.hint).toStartWith("nothing was written");
    for (const f of ["lib.lft", "use1.lft"]) expect(ws.read(f)).toBe(f === "lib.lft" ? DEF : CALL);
    expect(ws.read("new.lft")).toBe(`// new\n${CALL}`);
    // the server was given the new file before the rename it answered, and asked about its call
    expect(left.state().documents[ws.uri("new.lft")]?.text).toBe(`// new\n${CALL}`);
    const asked = left.requests("textDocument/definition").map((q) => q.params);
    expect(asked).toEqual([
      { textDocument: { uri: ws.uri("new.lft") }, position: { line: 1, character: 5 } },
    ]);
  });

  test("an occurrence the server resolves to another symbol is left, the rename applied", async () => {
    ws.write("new.oth", CALL);
    const r = await bridge.call("rename_apply", RENAME("oth"));
    expect(r.isError).toBe(false);
    expect(r.structured.applied).toBe(true);
    expect(ws.read("lib.oth")).toBe("def calc\n");
    expect(ws.read("use1.oth")).toBe("call calc\n");
    expect(ws.read("new.oth")).toBe(CALL);
  });

  test("a server that offers no definition: occurrences outside the edit are unchecked, refused", async () => {
    ws.write("new.bld", CALL);
    const e = await refusal(bridge, "rename_apply", RENAME("bld"));
    expect([e.code, e.details.reason, e.details.files]).toEqual([
      "EditIncomplete",
      "unchecked",
      ["new.bld"],
    ]);
    expect(ws.read("lib.bld")).toBe(DEF);
  });

  test("a changed file that does not mention the name is no suspect", async () => {
    ws.write("unrelated.lft", "nothing here\n");
    ws.write("new.lft", "// new\ncall calc\n"); // the call now spells another name
    const r = await bridge.call("rename_apply", RENAME("lft"));
    expect(r.isError).toBe(false);
    expect(ws.read("lib.lft")).toBe("def calc\n");
    expect(left.state().documents[ws.uri("unrelated.lft")]).toBeUndefined();
  });
});

describe("changed files that cannot all be open in the server", () => {
  test("rename_apply: EditIncomplete not_loaded naming the suspects; code_action_apply too", async () => {
    const ws = workspace();
    seed(ws, "fake");
    const probe = new FakeProbe("fake");
    const def = { uri: ws.uri("lib.fake"), range: lspRange(0, 4, 11) };
    const { bridge } = await bridgeFor({
      ws,
      servers: [renamer(probe, "fake", ws, def)],
      bridge: { ...GATED, max_open_documents: 4 },
      clientName: "ci-gate",
    });
    expect((await bridge.call("rename_preview", RENAME("fake"))).isError).toBe(false);
    const made = ["n1", "n2", "n3"].map((n) => `${n}.fake`);
    for (const f of made) ws.write(f, CALL);
    const e = await refusal(bridge, "rename_apply", RENAME("fake"));
    expect([e.code, e.details.reason, e.details.files]).toEqual([
      "EditIncomplete",
      "not_loaded",
      made,
    ]);
    expect(ws.read("lib.fake")).toBe(DEF);

    // the listing cannot load them beside its own file either: its handle says so at apply
    for (const f of ["n4.fake", "n5.fake"]) ws.write(f, "other text\n");
    const listing = await bridge.call("code_actions", { file: "lib.fake", line: 1, column: 1 });
    const handle = (listing.structured.actions as { handle?: string }[])[0]?.handle;
    expect(handle).toBeString();
    const a = await refusal(bridge, "code_action_apply", { handle });
    expect([a.code, a.details.reason, a.details.count]).toEqual([
      "EditIncomplete",
      "not_loaded",
      5,
    ]);
    expect(ws.read("lib.fake")).toBe(DEF);
  });
});

describe("code_action_apply after the listing", () => {
  test("another file changed since: refused naming it; listed again, the action applies", async () => {
    const ws = workspace();
    seed(ws, "fake");
    const probe = new FakeProbe("fake");
    const { bridge } = await bridgeFor({
      ws,
      servers: [renamer(probe, "fake", ws, undefined)],
      bridge: GATED,
      clientName: "ci-gate",
    });
    const list = async () => {
      const r = await bridge.call("code_actions", { file: "lib.fake", line: 1, column: 1 });
      return (r.structured.actions as { handle?: string }[])[0]?.handle;
    };
    // created after the session started and before the listing: loaded into the server for it
    expect(await list()).toBeString();
    ws.write("early.fake", CALL);
    const first = await list();
    expect(probe.state().documents[ws.uri("early.fake")]?.text).toBe(CALL);
    ws.write("use1.fake", `${CALL}${CALL}`);
    const e = await refusal(bridge, "code_action_apply", { handle: first });
    expect([e.code, e.details.reason, e.details.files]).toEqual([
      "EditIncomplete",
      "changed_since_listing",
      ["use1.fake"],
    ]);
    expect(e.hint).toContain("code_actions again");
    expect(ws.read("lib.fake")).toBe(DEF);
    const r = await bridge.call("code_action_apply", { handle: await list() });
    expect(r.structured).toEqual({ applied: true, changes: [{ file: "lib.fake", edits: 1 }] });
    expect(ws.read("lib.fake")).toBe("def calc\n");
  });
});

describe("a workspace with unwatched directories", () => {
  test("changes there are unknown: both apply tools refuse (untracked), nothing written", async () => {
    const ws = workspace();
    seed(ws, "fake");
    ws.write("sub/deeper/x.fake", "x\n");
    const probe = new FakeProbe("fake");
    const def = { uri: ws.uri("lib.fake"), range: lspRange(0, 4, 11) };
    const { bridge } = await bridgeFor({
      ws,
      // it asks about every directory (`reads`), past a bound of one
      servers: [renamer(probe, "fake", ws, def, { reads: ["**"] })],
      bridge: { ...GATED, max_watches: 1 },
      clientName: "ci-gate",
    });
    const listing = await bridge.call("code_actions", { file: "lib.fake", line: 1, column: 1 });
    const handle = (listing.structured.actions as { handle?: string }[])[0]?.handle;
    const e = await refusal(bridge, "rename_apply", RENAME("fake"));
    expect([e.code, e.details.reason, e.details.files]).toEqual([
      "EditIncomplete",
      "untracked",
      [],
    ]);
    expect(e.message).toContain("directories are not watched");
    const a = await refusal(bridge, "code_action_apply", { handle });
    expect([a.code, a.details.reason]).toEqual(["EditIncomplete", "untracked"]);
    expect(ws.read("lib.fake")).toBe(DEF);
    expect(ws.read("use1.fake")).toBe(CALL);
  });
});
