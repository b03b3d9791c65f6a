/**
 * The bridge at its bounds, through the compiled bridge against the fake server: an apply
 * whose answer is too large, or whose targets cannot all be held open, is refused before
 * anything is written (SPEC §4.4, §5.3); an error repeats the caller's input bounded (§4.6).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";

const GATED = { mutation: "gated", mutation_allowlist: ["ci-gate"] };

afterAll(closeBridgesAndTempDirs);

describe("a rename whose answer is over max_result_bytes", () => {
  const ws = workspace();
  const MANY = `${"beta ".repeat(30)}\n`;
  ws.write("many.fake", MANY);
  ws.write("two.fake", "beta beta\n");
  const fake = new FakeProbe("fake");
  const servers = [
    fake.server({
      capabilities: { textDocumentSync: 1, renameProvider: true },
      rename_edit: {
        changes: {
          [ws.uri("many.fake")]: Array.from({ length: 30 }, (_, i) => ({
            range: lspRange(0, 5 * i, 5 * i + 4),
            newText: "delta",
          })),
          [ws.uri("two.fake")]: [
            { range: lspRange(0, 0, 4), newText: "delta" },
            { range: lspRange(0, 5, 9), newText: "delta" },
          ],
        },
      },
    }),
  ];
  let bridge: BridgeHandle;
  beforeAll(async () => {
    ({ bridge } = await bridgeFor({
      ws,
      servers,
      bridge: { ...GATED, max_result_bytes: 1024 },
      clientName: "ci-gate",
    }));
  });

  test("rename_apply is ResultTooLarge like rename_preview, counted in edits, and writes nothing", async () => {
    const args = { file: "many.fake", line: 1, column: 1, new_name: "delta" };
    const preview = await bridge.call("rename_preview", args);
    const applied = await bridge.call("rename_apply", args);
    for (const r of [preview, applied]) {
      expect(r.structured.code).toBe("ResultTooLarge");
      const details = r.structured.details as Record<string, unknown>;
      expect(details.count).toBe(32);
      expect(details.files).toBe(2);
      expect(details.by_file).toEqual([
        { file: "many.fake", count: 30 },
        { file: "two.fake", count: 2 },
      ]);
    }
    expect(String(applied.structured.hint)).toContain("nothing was written");
    expect(ws.read("many.fake")).toBe(MANY);
    expect(ws.read("two.fake")).toBe("beta beta\n");
  });
});

describe("rename_apply holds every target open in the server (max_open_documents)", () => {
  const ws = workspace();
  const NAMES = ["r1.fake", "r2.fake", "r3.fake"];
  for (const n of NAMES) ws.write(n, "beta\n");
  const rename = {
    changes: Object.fromEntries(
      NAMES.map((n) => [ws.uri(n), [{ range: lspRange(0, 0, 4), newText: "delta" }]]),
    ),
  };

  /** rename_apply of the three files through a bridge with this open-document bound. */
  async function renameWith(maxOpen: number) {
    const fake = new FakeProbe("fake");
    const { bridge } = await bridgeFor({
      ws,
      servers: [
        fake.server({
          capabilities: { textDocumentSync: 1, renameProvider: true },
          rename_edit: rename,
        }),
      ],
      bridge: { ...GATED, max_open_documents: maxOpen },
      clientName: "ci-gate",
    });
    const r = await bridge.call("rename_apply", {
      file: "r1.fake",
      line: 1,
      column: 1,
      new_name: "delta",
    });
    return { r, documents: fake.state().documents };
  }

  test("more files than fit: EditInvalid, nothing sent or written", async () => {
    const { r, documents } = await renameWith(2);
    expect(r.structured.code).toBe("EditInvalid");
    expect(r.structured.details).toEqual({ files: 3, max_open_documents: 2 });
    expect(String(r.structured.hint)).toContain("max_open_documents ≥ 3");
    for (const n of NAMES) expect(ws.read(n)).toBe("beta\n");
    expect(Object.keys(documents)).toEqual([ws.uri("r1.fake")]);
  });

  test("as many as fit: every target open in the server (none closed for room), then written", async () => {
    const { r, documents } = await renameWith(3);
    expect(r.isError).toBe(false);
    for (const n of NAMES) {
      const doc = documents[ws.uri(n)];
      expect([n, doc?.open, doc?.closes]).toEqual([n, true, 0]);
      expect(ws.read(n)).toBe("delta\n");
    }
  });
});

describe("an error repeats the caller's input bounded", () => {
  const ws = workspace({ "a.fake": "alpha\n" });
  let bridge: BridgeHandle;
  beforeAll(async () => {
    const fake = new FakeProbe("fake");
    ({ bridge } = await bridgeFor({
      ws,
      servers: [fake.server()],
      bridge: GATED,
      clientName: "ci-gate",
    }));
  });
  // 1000 fields of 1000 characters: about 1 MB of names
  const names = Array.from(
    { length: 1000 },
    (_, i) => `${String(i).padStart(4, "0")}${"x".repeat(996)}`,
  );
  const fields = Object.fromEntries(names.map((n) => [n, 1]));

  test("code_action_apply with extra fields: the first 20 names, each cut, and the count", async () => {
    const r = await bridge.call("code_action_apply", { handle: `ca_${"A".repeat(43)}`, ...fields });
    expect(r.structured.code).toBe("PayloadRejected");
    const details = r.structured.details as { fields: string[]; count: number };
    expect(details.count).toBe(1000);
    expect(details.fields.length).toBe(20);
    expect(details.fields[0]).toBe(`0000${"x".repeat(60)}… (1000 characters)`);
    expect(r.text.length).toBeLessThan(8192);
  });

  test("unknown arguments of a read tool and an unknown tool name: bounded too", async () => {
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1, ...fields });
    expect(r.structured.code).toBe("InvalidArgument");
    expect(String(r.structured.message)).toContain("(1000 in all)");
    expect(r.text.length).toBeLessThan(8192);
    const unknown = await bridge.call(`no_such_tool_${"y".repeat(100_000)}`, {});
    expect(unknown.structured.code).toBe("UnsupportedMethod");
    expect(unknown.text.length).toBeLessThan(1024);
  });

  test("a 1 MB file path or workspace name: every string of the error is bounded", async () => {
    const long = "d/".repeat(500_000);
    const file = await bridge.call("hover", { file: long, line: 1, column: 1 });
    expect(file.isError).toBe(true);
    expect(file.text.length).toBeLessThan(3 * 8192);
    expect(file.text).toContain("(1000000 characters)");
    const wsName = await bridge.call("hover", {
      workspace: "w".repeat(1_000_000),
      file: "a.fake",
      line: 1,
      column: 1,
    });
    expect(wsName.structured.code).toBe("UnknownWorkspace");
    expect(wsName.text.length).toBeLessThan(3 * 8192);
  });
});
