/**
 * A server naming paths it should not (SPEC §8.1): a FIFO, a directory, a too-large and a
 * non-UTF-8 file inside the root, a file outside it, /dev/zero and /proc/self/environ, in
 * locations, rename edits and code action edits. Every call is answered and /dev/zero is
 * never read (the bridge's read counter and memory stay flat), rename_preview and the
 * applies refuse with EditInvalid and write nothing, and no code action with such a target
 * gets a handle.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToUri } from "../../src/workspace/uri.ts";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

/** a hang bound: what the bridge read is told by its read counter (bytesRead), not by time */
const BOUND_MS = 30_000;
/** far above what the calls read (measured: about 11 KB), far below a read of /dev/zero */
const MAX_READ_BYTES = 64 * 1024 * 1024;
const MAX_FILE_BYTES = 4096;

let ws = "";
let outside = "";
let bridge: RawBridge;
const bad: Record<string, string> = {};

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0);
}

/** Bytes the process has read through read(2) and the like, from any file (its `rchar`). */
function bytesRead(pid: number): number {
  const m = /^rchar:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
  if (!m) throw new Error(`no rchar in /proc/${pid}/io`);
  return Number(m[1]);
}

const at = (line: number, character: number) => ({ line, character });
const insert = [{ range: { start: at(0, 0), end: at(0, 0) }, newText: "x" }];
/** a rename of `fn_a` (the bridge checks each edit replaces the renamed name, SPEC §7.3) */
const rename = [{ range: { start: at(0, 0), end: at(0, 4) }, newText: "renamed" }];

beforeAll(async () => {
  const base = realpathSync(tempDir("theodolite-hostile-paths-"));
  ws = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(join(ws, "dir"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "a.fake"), "fn_a é\n");
  writeFileSync(join(ws, "big.fake"), "x".repeat(MAX_FILE_BYTES + 1));
  writeFileSync(join(ws, "latin1.fake"), new Uint8Array([0x66, 0x6e, 0xe9, 0x0a]));
  writeFileSync(join(outside, "secret.fake"), "fn_secret\n");
  expect(Bun.spawnSync(["mkfifo", join(ws, "pipe.fake")]).success).toBe(true);
  Object.assign(bad, {
    fifo: pathToUri(join(ws, "pipe.fake")),
    dir: pathToUri(join(ws, "dir")),
    big: pathToUri(join(ws, "big.fake")),
    latin1: pathToUri(join(ws, "latin1.fake")),
    outside: pathToUri(join(outside, "secret.fake")),
    zero: "file:///dev/zero",
    environ: "file:///proc/self/environ",
  });
  const good = pathToUri(join(ws, "a.fake"));
  const uris = [good, ...Object.values(bad)];
  const range = { start: at(0, 1), end: at(0, 3) };
  const changes: Record<string, unknown> = {};
  for (const uri of uris) changes[uri] = rename;
  const scenario = {
    capabilities: {
      textDocumentSync: 1,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: true,
      codeActionProvider: true,
    },
    responses: {
      "textDocument/definition": uris.map((uri) => ({ uri, range })),
      "textDocument/references": uris.map((uri) => ({ uri, range })),
    },
    rename_edit: { changes },
    // code_actions waits for the file's diagnostics to settle: publish them on every sync
    publish_on_sync: [],
    code_actions: uris.map((uri, i) => ({
      title: `edit ${i}`,
      kind: "quickfix",
      edit: { changes: { [uri]: insert } },
    })),
  };
  const config = writeConfig({
    bridge: { max_file_bytes: MAX_FILE_BYTES, mutation: "gated", mutation_allowlist: ["hostile"] },
    workspace: [{ name: "ws", root: ws, servers: ["fake"] }],
    server: [fakeServer("fake", scenario)],
  });
  bridge = await RawBridge.start(config);
});

afterAll(async () => {
  await closeRawBridges();
  removeTempDirs();
});

const position = { file: "a.fake", line: 1, column: 1 };

describe("server-named paths (SPEC §8.1)", () => {
  test("locations naming FIFOs, devices, directories and outside files: answered, listed as given", async () => {
    const rssBefore = rssKb(bridge.pid);
    const readBefore = bytesRead(bridge.pid);
    for (const tool of ["definition", "references"]) {
      const r = await bridge.call(tool, position, BOUND_MS);
      expect(r.isError).toBe(false);
      const files = (r.structured.locations as { file: string }[]).map((l) => l.file);
      expect(files).toContain("a.fake");
      expect(files).toContain("pipe.fake");
      expect(files).toContain(join(outside, "secret.fake"));
      expect(files).toContain("/dev/zero");
    }
    // /dev/zero was never read to a size check (gigabytes): neither read nor held
    const read = bytesRead(bridge.pid) - readBefore;
    console.log(`[hostile] server-named paths: the bridge read ${read} bytes`);
    expect(read).toBeLessThan(MAX_READ_BYTES);
    expect(rssKb(bridge.pid) - rssBefore).toBeLessThan(100_000);
  });

  test("rename_preview with edits naming them: EditInvalid as the apply, never reads the outside file", async () => {
    const readBefore = bytesRead(bridge.pid);
    const r = await bridge.call("rename_preview", { ...position, new_name: "renamed" }, BOUND_MS);
    expect(bytesRead(bridge.pid) - readBefore).toBeLessThan(MAX_READ_BYTES);
    // a preview shows only what rename_apply could write (SPEC §7.3)
    expect(r.code).toBe("EditInvalid");
  });

  test("rename_apply: EditInvalid, nothing written inside or outside", async () => {
    const before = [join(ws, "a.fake"), join(outside, "secret.fake")].map((p) => {
      const st = statSync(p);
      return `${st.ino} ${st.mtimeMs} ${readFileSync(p, "utf8")}`;
    });
    const r = await bridge.call("rename_apply", { ...position, new_name: "renamed" }, BOUND_MS);
    expect(r.code).toBe("EditInvalid");
    const after = [join(ws, "a.fake"), join(outside, "secret.fake")].map((p) => {
      const st = statSync(p);
      return `${st.ino} ${st.mtimeMs} ${readFileSync(p, "utf8")}`;
    });
    expect(after).toEqual(before);
  });

  test("code_actions: only the action editing a regular UTF-8 file inside gets a handle", async () => {
    const r = await bridge.call("code_actions", position, BOUND_MS);
    expect(r.isError).toBe(false);
    const actions = r.structured.actions as { title: string; handle?: string }[];
    expect(actions).toHaveLength(1 + Object.keys(bad).length);
    expect(actions.filter((a) => a.handle !== undefined).map((a) => a.title)).toEqual(["edit 0"]);
    await bridge.ping(BOUND_MS); // still serving
    expect(bridge.notJsonRpc).toEqual([]);
  });
});
