/**
 * The session's side of coherence (SPEC §5), without a server: Documents over a real temp
 * workspace and a recording server link. Open documents follow the disk (changed →
 * didChange version + 1 and didSave, gone → didClose), the server's watchers get the file
 * events they asked for, the order is didClose → didChangeWatchedFiles → didChange, the
 * generation moves only when something reached the server, and a document synced at an
 * older generation is refreshed before it is asked about.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToUri } from "../../../src/workspace/uri.ts";
import { clearDocuments, setup } from "../../support/documents.ts";
import { removeTempDirs } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);
afterEach(clearDocuments);

describe("sync", () => {
  test("open documents follow the disk: changed → didChange + didSave, same bytes → nothing", async () => {
    const w = setup({ "a.fake": "a1", "b.fake": "b1" });
    await w.open("a.fake");
    await w.open("b.fake");
    expect(w.take()).toEqual([
      ["didOpen", "a.fake", 1],
      ["didOpen", "b.fake", 1],
    ]);
    w.docs.sync();
    expect(w.take()).toEqual([]);
    w.write("b.fake", "b2");
    w.write("a.fake", "a1"); // rewritten with the same bytes
    w.docs.sync();
    expect(w.take()).toEqual([
      ["didChange", "b.fake", 2, "b2"],
      ["didSave", "b.fake"],
    ]);
    expect(w.docs.generation).toBe(1);
  });

  test("a deleted, too large or no longer UTF-8 document is closed and its diagnostics forgotten", async () => {
    const w = setup({ "a.fake": "a", "b.fake": "b", "c.fake": "c", "d.fake": "d" });
    for (const f of ["a.fake", "b.fake", "c.fake", "d.fake"]) {
      await w.open(f);
      w.ctx.diagnostics.onPublish({ uri: pathToUri(join(w.root, f)), diagnostics: [] });
    }
    w.take();
    unlinkSync(join(w.root, "a.fake"));
    writeFileSync(join(w.root, "b.fake"), new Uint8Array([0xff, 0xfe]));
    writeFileSync(join(w.root, "c.fake"), "c".repeat((1 << 20) + 1));
    w.docs.sync();
    expect(w.take()).toEqual([
      ["didClose", "a.fake"],
      ["didClose", "b.fake"],
      ["didClose", "c.fake"],
    ]);
    // only the document still open keeps what its server published
    expect(w.ctx.diagnostics.uris()).toEqual([pathToUri(join(w.root, "d.fake"))]);
    expect(w.docs.count()).toBe(1);
  });

  test("registered watchers get their events; order: didClose, file events, didChange", async () => {
    const w = setup({ "open.py": "o1", "gone.py": "g", "lib/dep.py": "d1", "notes.txt": "n" });
    w.register([{ globPattern: "**/*.py" }]);
    await w.open("open.py");
    await w.open("gone.py");
    w.take();
    w.write("open.py", "o2");
    w.write("lib/dep.py", "d2");
    w.write("lib/new.py", "n");
    w.write("notes.txt", "n2");
    unlinkSync(join(w.root, "gone.py"));
    w.docs.sync();
    expect(w.take()).toEqual([
      ["didClose", "gone.py"],
      ["workspace/didChangeWatchedFiles", "2 open.py", "2 lib/dep.py", "1 lib/new.py", "3 gone.py"],
      ["didChange", "open.py", 2, "o2"],
      ["didSave", "open.py"],
    ]);
    // a change nobody registered for reaches nobody and moves nothing
    const before = w.docs.generation;
    w.write("notes.txt", "n3");
    w.docs.sync();
    expect(w.take()).toEqual([]);
    expect(w.docs.generation).toBe(before);
  });

  test("kind bits are honoured: a watcher of deletions only hears deletions", async () => {
    const w = setup({ "a.py": "a", "b.py": "b" });
    w.register([{ globPattern: { baseUri: pathToUri(w.root), pattern: "*.py" }, kind: 4 }]);
    w.write("a.py", "a2");
    w.write("c.py", "c");
    unlinkSync(join(w.root, "b.py"));
    w.docs.sync();
    expect(w.take()).toEqual([["workspace/didChangeWatchedFiles", "3 b.py"]]);
  });

  test("a server without watchers gets no events, but its generation moves", async () => {
    const w = setup({ "main.c": "int main;", "util.h": "int f(void);" });
    await w.open("main.c");
    w.take();
    const generation = w.docs.generation;
    w.write("util.h", "int f(int);");
    w.docs.sync();
    expect(w.take()).toEqual([]);
    expect(w.docs.generation).toBe(generation + 1);
    // hidden directories (.cache of clangd's index) move nothing
    w.write(".cache/index/x.idx", "blob");
    w.docs.sync();
    expect(w.docs.generation).toBe(generation + 1);
  });

  test("a server's own files (own_files: .cache) are no change, for any session; other hidden files are", async () => {
    const clangd = setup({ "main.c": "int main;" });
    const pyright = setup({}, { ws: clangd.ws });
    pyright.register([{ globPattern: "**/*" }]);
    await clangd.open("main.c");
    clangd.take();
    const generation = clangd.docs.generation;
    // clangd's own index writes
    clangd.write(".cache/clangd/index/main.c.idx", "blob");
    pyright.docs.sync();
    clangd.docs.sync();
    expect(pyright.take()).toEqual([]);
    expect(clangd.docs.generation).toBe(generation);
    expect(clangd.docs.disk.takeReason("restart")).toBeUndefined();
    // a header in a hidden include directory (-I.gen) is a change like any other
    clangd.write(".gen/api.h", "int f(void);");
    clangd.docs.sync();
    expect(clangd.docs.generation).toBe(generation + 1);
    expect(clangd.docs.disk.takeReason("restart")).toBe(
      ".gen/api.h created, which the server is not known to follow",
    );
  });
});

describe("changes nobody vouches for (SPEC §5.3)", () => {
  test("restart (the default): the first unproven change is the reason, once", async () => {
    const w = setup(
      { "a.py": "a", "README.md": "r", "conf/base.json": "{}" },
      { follows: ["**/*.py"] },
    );
    w.register([{ globPattern: "**/*" }]);
    await w.open("a.py");
    w.write("a.py", "a2");
    w.write("new.py", "n");
    w.docs.sync();
    // an open document, and an event for a file it is shown to follow by its events
    expect(w.docs.disk.takeReason("restart")).toBeUndefined();
    // an event alone is no proof (pyright's `**` and its base config)
    w.write("conf/base.json", '{"strict": true}');
    w.docs.sync();
    expect(w.docs.disk.takeReason("restart")).toBe(
      "conf/base.json changed, which the server is not known to follow",
    );
    expect(w.docs.disk.takeReason("restart")).toBeUndefined();
  });

  test("follows, reads, own files and the applier's side files are no reason", async () => {
    const w = setup({ "a.py": "a" }, { follows: ["**/*.json"], reads: ["**/*.{py,json}"] });
    w.register([{ globPattern: "**/*.json" }]);
    await w.open("a.py");
    w.write("tsconfig.json", "{}");
    w.write("docs/notes.txt", "never read");
    w.write(".cache/tool/x", "its own");
    w.write(".a.py.theodolite-0123456789abcdef.tmp", "the applier's");
    w.docs.sync();
    expect(w.docs.disk.takeReason("restart")).toBeUndefined();
  });

  test("a file of its languages that no watcher asked for and nobody opened is unproven", async () => {
    const w = setup({ "a.py": "a" });
    await w.open("a.py");
    w.write("lib/new.py", "n");
    w.docs.sync();
    expect(w.docs.disk.takeReason("restart")).toBe(
      "lib/new.py created, which the server is not known to follow",
    );
  });

  test("mark: no restart; the changes are kept as marks until the next life", async () => {
    const w = setup({ "a.py": "a" }, { unproven: "mark" });
    await w.open("a.py");
    expect(w.docs.disk.unsettled()).toBeNull();
    for (let i = 0; i < 10; i++) w.write(`data/${i}.txt`, "x");
    w.docs.sync();
    expect(w.docs.disk.takeReason("restart")).toBeUndefined();
    expect(w.docs.disk.unsettled()).toEqual({
      files: Array.from({ length: 10 }, (_, i) => `data/${i}.txt`)
        .sort()
        .slice(0, 8),
      count: 10,
    });
    w.docs.reset();
    expect(w.docs.disk.unsettled()).toBeNull();
  });
});

describe("open_changed_files", () => {
  test("new and changed files of the server's extensions its watchers report are opened too", async () => {
    const w = setup({ "a.py": "a", "b.py": "b", "notes.txt": "n" }, { openChanged: true });
    w.register([{ globPattern: "**/*" }]);
    w.write("b.py", "b2");
    w.write("new.py", "n");
    w.write("notes.txt", "n2");
    const sent = w.docs.sync();
    expect(w.take()).toEqual([
      ["workspace/didChangeWatchedFiles", "2 b.py", "1 new.py", "2 notes.txt"],
      ["didOpen", "b.py", 1],
      ["didOpen", "new.py", 1],
    ]);
    expect(sent.opened.map((d) => d.abs.slice(w.root.length + 1))).toEqual(["b.py", "new.py"]);
    // opened, they follow the disk as documents from now on
    w.write("new.py", "n2");
    w.docs.sync();
    expect(w.take()).toEqual([
      ["workspace/didChangeWatchedFiles", "2 new.py"],
      ["didChange", "new.py", 2, "n2"],
      ["didSave", "new.py"],
    ]);
  });

  test("a file named like what every object inherits is no file of the server's", async () => {
    const w = setup({}, { openChanged: true });
    w.register([{ globPattern: "**/*" }]);
    w.write("x.constructor", "c");
    w.write("y.toString", "t");
    w.docs.sync();
    expect(w.take()).toEqual([
      ["workspace/didChangeWatchedFiles", "1 x.constructor", "1 y.toString"],
    ]);
  });

  test("a server without watchers: every changed or new file of its extensions is opened", async () => {
    const w = setup({ "a.py": "a", "b.py": "b", "notes.txt": "n" }, { openChanged: true });
    await w.open("a.py");
    w.take();
    w.write("b.py", "b2");
    w.write("new.py", "n");
    w.write("notes.txt", "n2");
    const { sent, opened } = w.docs.sync();
    // no events (it asked for none); the changed .py files opened, the .txt not
    expect(w.take()).toEqual([
      ["didOpen", "b.py", 1],
      ["didOpen", "new.py", 1],
    ]);
    expect(sent).toEqual([]);
    expect(opened.map((d) => d.abs.slice(w.root.length + 1))).toEqual(["b.py", "new.py"]);
  });

  test("more than max_open_documents at once: the events alone", async () => {
    const w = setup({}, { openChanged: true, maxOpen: 2 });
    w.register([{ globPattern: "**/*.py" }]);
    for (const f of ["x.py", "y.py", "z.py"]) w.write(f, f);
    w.docs.sync();
    expect(w.take()).toEqual([["workspace/didChangeWatchedFiles", "1 x.py", "1 y.py", "1 z.py"]]);
  });
});

describe("target", () => {
  test("reopen: an unchanged document of an older generation is closed, then opened afresh", async () => {
    const w = setup({ "main.c": "m", "util.h": "u1" });
    await w.open("main.c", "reopen");
    await w.open("main.c", "reopen");
    expect(w.take()).toEqual([["didOpen", "main.c", 1]]);
    w.write("util.h", "u2");
    w.docs.sync();
    const doc = await w.open("main.c", "reopen");
    // the barrier keeps whatever the server publishes for the closing before the reopen
    expect(w.take()).toEqual([["didClose", "main.c"], ["barrier"], ["didOpen", "main.c", 2]]);
    expect(doc.generation).toBe(w.docs.generation);
    await w.open("main.c", "reopen");
    expect(w.take()).toEqual([]);
  });

  test("none: a pulled server's document stays as it is", async () => {
    const w = setup({ "main.py": "m", "lib.py": "l1" });
    await w.open("main.py");
    w.take();
    w.write("lib.py", "l2");
    w.docs.sync();
    await w.open("main.py");
    expect(w.take()).toEqual([]);
  });

  test("content read before the session was ready is read again when the disk moved since", async () => {
    const w = setup({ "a.fake": "old" });
    const early = w.ws.read("a.fake");
    w.write("a.fake", "newer content");
    const doc = await w.docs.target(early, "none");
    expect(doc.text).toBe("newer content");
    expect(readFileSync(join(w.root, "a.fake"), "utf8")).toBe(doc.text);
  });
});

describe("a server that checks on save (diagnostics_runs)", () => {
  test("a file it never opened changed: the open document is saved, so it checks again", async () => {
    const w = setup({ "src/lib.rs": "fn a() {}", "src/other.rs": "fn b() {}" }, { runs: true });
    await w.open("src/lib.rs");
    w.take();
    w.write("src/other.rs", "fn b() { nope }");
    w.docs.sync();
    expect(w.take()).toEqual([["didSave", "src/lib.rs"]]);
    expect(w.docs.saves.mark).toBeDefined();
    w.docs.sync();
    expect(w.take()).toEqual([]);
  });

  test("nothing open when the change came: the next document opened is saved", async () => {
    const w = setup({ "src/lib.rs": "fn a() {}", "Cargo.toml": "[package]" }, { runs: true });
    w.docs.sync(); // the watch starts with the first sync
    w.write("Cargo.toml", "[package]\n[features]");
    w.docs.sync();
    expect(w.take()).toEqual([]);
    await w.open("src/lib.rs");
    expect(w.take()).toEqual([
      ["didOpen", "src/lib.rs", 1],
      ["didSave", "src/lib.rs"],
    ]);
  });

  test("a changed open document is saved once, with no extra save", async () => {
    const w = setup({ "src/lib.rs": "fn a() {}" }, { runs: true });
    await w.open("src/lib.rs");
    w.take();
    w.write("src/lib.rs", "fn a() { 1 }");
    w.docs.sync();
    expect(w.take()).toEqual([
      ["didChange", "src/lib.rs", 2, "fn a() { 1 }"],
      ["didSave", "src/lib.rs"],
    ]);
  });

  test("a server without check runs is not sent saves for files it never opened", async () => {
    const w = setup({ "a.c": "int a;", "b.h": "int b;" });
    await w.open("a.c");
    w.take();
    w.write("b.h", "int b2;");
    w.docs.sync();
    expect(w.take()).toEqual([]);
  });
});

describe("restart_on: a file the server does not reload", () => {
  test("a change to a matching file is the reason to restart, once; others are not", async () => {
    const w = setup(
      { "main.c": "int main;", "build/compile_commands.json": "[]", "notes.txt": "n" },
      { restartOn: ["**/compile_commands.json"] },
    );
    await w.open("main.c");
    // an open document's change is followed (sent as text)
    w.write("main.c", "int main(void);");
    w.docs.sync();
    expect(w.docs.disk.takeReason("restart")).toBeUndefined();
    w.write("build/compile_commands.json", '[{"file": "main.c"}]');
    w.docs.sync();
    expect(w.docs.disk.takeReason("restart")).toBe("build/compile_commands.json changed");
    expect(w.docs.disk.takeReason("restart")).toBeUndefined();
  });
});

describe("package_manifest: a new package reaches the server", () => {
  test("a file created in a new directory: the nearest manifest is reported changed, once", async () => {
    const w = setup({ "go.mod": "module m", "main.go": "package main" }, { manifest: "go.mod" });
    w.register([{ globPattern: "**/*.{go,mod}" }]);
    w.write("lib/deep/x/a.go", "package x");
    w.write("lib/deep/x/b.go", "package x");
    w.docs.sync();
    expect(w.take()).toEqual([
      ["workspace/didChangeWatchedFiles", "1 lib/deep/x/a.go", "1 lib/deep/x/b.go", "2 go.mod"],
    ]);
    // another file there: that package is known now
    w.write("lib/deep/x/c.go", "package x");
    w.docs.sync();
    expect(w.take()).toEqual([["workspace/didChangeWatchedFiles", "1 lib/deep/x/c.go"]]);
    // a file of another language in a new directory starts no package
    w.register([{ globPattern: "**/*" }]);
    w.write("docs/readme.md", "x");
    w.docs.sync();
    expect(w.take()).toEqual([["workspace/didChangeWatchedFiles", "1 docs/readme.md"]]);
  });
});

describe("dependencies the server reads (SPEC §5.2)", () => {
  const SP = ".venv/lib/python3.11/site-packages";

  test("a package's files are events only, never opened as documents", async () => {
    const w = setup({ "app.py": "import six", [`${SP}/six.py`]: "s" }, { openChanged: true });
    w.register([{ globPattern: "**" }]);
    w.write(`${SP}/newmod.py`, "n");
    w.write("new.py", "n");
    w.docs.sync();
    expect(w.take()).toEqual([
      ["workspace/didChangeWatchedFiles", `1 ${SP}/newmod.py`, "1 new.py"],
      ["didOpen", "new.py", 1],
    ]);
  });

  test("reload_on: a matching change has the server reload its configuration, after the events, once", async () => {
    const w = setup({ "app.py": "a", [`${SP}/six.py`]: "s" }, { reloadOn: ["**/site-packages/*"] });
    w.register([{ globPattern: "**" }]);
    await w.open("app.py");
    w.take();
    w.write("app.py", "a2");
    w.docs.sync();
    expect(w.take().map(([m]) => m)).toEqual([
      "workspace/didChangeWatchedFiles",
      "didChange",
      "didSave",
    ]);
    w.write(`${SP}/newmod.py`, "n");
    w.docs.sync();
    expect(w.take()).toEqual([
      ["workspace/didChangeWatchedFiles", `1 ${SP}/newmod.py`],
      ["workspace/didChangeConfiguration"],
    ]);
    w.docs.sync();
    expect(w.take()).toEqual([]);
    expect(w.docs.status().configuration_reloads).toBe(1);
  });
});
