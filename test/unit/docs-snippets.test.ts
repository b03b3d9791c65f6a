/**
 * The README's copy-paste snippets stay valid: every json / toml / yaml block parses, each
 * client snippet starts theodolite with --config (the MCP Inspector's through
 * THEODOLITE_CONFIG), the bridge.toml example passes the real config validation, the
 * --check-config output shown has the shape the command prints, and the README opens with
 * the two commands it promises.
 *
 * There is no YAML library in the project (and none is added), so the DSH snippet is read
 * by `parseBlockYaml` below: the block-style subset it uses (mappings, sequences, quoted and
 * plain scalars), strict about indentation, and refusing anything outside the subset.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml, stringify } from "smol-toml";
import { runCheckConfig } from "../../src/commands/check-config.ts";
import { CONFIG_ENV_VAR, resolveConfigPath } from "../../src/config/load.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const README = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");
afterAll(removeTempDirs);

interface Block {
  lang: string;
  body: string;
  /** from a `<!-- snippet: NAME -->` line right before the fence */
  snippet?: string;
  line: number;
}

/** Fenced code blocks (``` only, no nesting), with the snippet marker that precedes each. */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```([\w-]*)\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end === -1) throw new Error(`README line ${i + 1}: unclosed code fence`);
    const marker = /^<!-- snippet: ([\w-]+) -->$/.exec(lines[i - 1] ?? "");
    const block: Block = {
      lang: open[1] ?? "",
      body: lines.slice(i + 1, end).join("\n"),
      line: i + 1,
    };
    if (marker?.[1]) block.snippet = marker[1];
    blocks.push(block);
    i = end;
  }
  return blocks;
}

type Yaml = string | number | boolean | Yaml[] | { [key: string]: Yaml };
interface YamlLine {
  indent: number;
  text: string;
  no: number;
}

/** Block-style YAML subset: nested mappings and sequences of scalars or mappings. */
function parseBlockYaml(src: string): Yaml {
  if (src.includes("\t")) throw new Error("tabs are not allowed in YAML indentation");
  const lines: YamlLine[] = src
    .split("\n")
    .map((raw, i) => ({ indent: raw.length - raw.trimStart().length, text: raw.trim(), no: i + 1 }))
    .filter((l) => l.text !== "" && !l.text.startsWith("#"));
  let pos = 0;
  const fail = (l: YamlLine | undefined, why: string): never => {
    throw new Error(`YAML line ${l?.no ?? "(end)"}: ${why}`);
  };
  const scalar = (s: string, l: YamlLine): Yaml => {
    if (/^'(?:[^']|'')*'$/.test(s)) return s.slice(1, -1).replaceAll("''", "'");
    if (/^"(?:[^"\\]|\\.)*"$/.test(s)) return JSON.parse(s) as string;
    if (s === "true" || s === "false") return s === "true";
    if (/^-?\d+$/.test(s)) return Number(s);
    if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) || / #|: /.test(s)) fail(l, `unsupported scalar ${s}`);
    return s;
  };
  const block = (indent: number): Yaml => {
    const first = lines[pos];
    if (!first || first.indent !== indent) return fail(first, `expected indentation ${indent}`);
    return first.text.startsWith("- ") ? sequence(indent) : mapping(indent);
  };
  const sequence = (indent: number): Yaml[] => {
    const out: Yaml[] = [];
    for (let l = lines[pos]; l && l.indent === indent && l.text.startsWith("- "); l = lines[pos]) {
      const rest = l.text.slice(2);
      if (/^[\w.-]+:( |$)/.test(rest)) {
        lines[pos] = { indent: indent + 2, text: rest, no: l.no }; // "- key: v" opens a mapping
        out.push(mapping(indent + 2));
      } else {
        pos++;
        out.push(scalar(rest, l));
      }
    }
    return out;
  };
  const mapping = (indent: number): { [key: string]: Yaml } => {
    const out: { [key: string]: Yaml } = {};
    for (let l = lines[pos]; l && l.indent === indent && !l.text.startsWith("- "); l = lines[pos]) {
      pos++;
      const m = /^([\w.-]+):(?: (.+))?$/.exec(l.text);
      if (!m?.[1]) return fail(l, "expected `key: value` or `key:`");
      if (m[1] in out) fail(l, `duplicate key ${m[1]}`);
      const next = lines[pos];
      if (m[2] !== undefined) out[m[1]] = scalar(m[2], l);
      else if (next && next.indent > indent) out[m[1]] = block(next.indent);
      else fail(l, `key ${m[1]} has no value`);
    }
    return out;
  };
  const doc = block(0);
  if (pos < lines.length) fail(lines[pos], "unexpected indentation");
  return doc;
}

const blocks = fencedBlocks(README);
const snippet = (name: string): Block => {
  const found = blocks.filter((b) => b.snippet === name);
  expect(found).toHaveLength(1);
  return found[0] as Block;
};

interface StdioEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A client entry that starts theodolite with `--config FILE` and placeholder paths only. */
function expectLaunchesTheodolite(entry: StdioEntry): void {
  expect(entry.command).toBe("/path/to/theodolite");
  const at = entry.args.indexOf("--config");
  expect(at).toBeGreaterThanOrEqual(0);
  expect(entry.args[at + 1]).toBe("/path/to/bridge.toml");
  expect(typeof entry.env).toBe("object");
  for (const value of Object.values(entry.env)) expect(typeof value).toBe("string");
}

describe("README", () => {
  test("opens with exactly `bash .ci/demo` and `bash .ci/run`, right after the title", () => {
    const [first, second] = blocks;
    expect(first?.body).toBe("bash .ci/demo");
    expect(second?.body).toBe("bash .ci/run");
    const shells = ["sh", "bash", "shell"];
    expect(shells).toContain(first?.lang ?? "");
    expect(shells).toContain(second?.lang ?? "");
    const beforeFirst = README.split("\n").slice(0, (first?.line ?? 1) - 1);
    expect(beforeFirst.filter((l) => l.trim() !== "")).toHaveLength(1);
    expect(beforeFirst[0]).toMatch(/^# theodolite\b/);
  });

  test("every json, toml and yaml block parses", () => {
    const typed = blocks.filter((b) => ["json", "toml", "yaml"].includes(b.lang));
    expect(typed.length).toBeGreaterThanOrEqual(6);
    for (const b of typed) {
      const parse = { json: JSON.parse, toml: parseToml, yaml: parseBlockYaml }[b.lang];
      expect(() => parse?.(b.body), `README line ${b.line}`).not.toThrow();
    }
  });

  test("no snippet names a real machine path", () => {
    for (const b of blocks.filter((x) => x.snippet !== undefined)) {
      for (const path of b.body.match(/(?<![\w.])\/[\w.-]+(?:\/[\w.*{},-]+)+/g) ?? []) {
        expect(path).toStartWith("/path/to/");
      }
    }
  });

  test("Claude Code and Cursor: mcpServers.theodolite {command, args, env}", () => {
    for (const name of ["claude-code", "cursor"]) {
      const doc = JSON.parse(snippet(name).body) as { mcpServers: Record<string, StdioEntry> };
      expect(Object.keys(doc)).toEqual(["mcpServers"]);
      expectLaunchesTheodolite(doc.mcpServers.theodolite as StdioEntry);
    }
  });

  test('VS Code: servers.theodolite with type "stdio"', () => {
    const doc = JSON.parse(snippet("vscode").body) as {
      servers: Record<string, StdioEntry & { type: string }>;
    };
    expect(Object.keys(doc)).toEqual(["servers"]);
    expect(doc.servers.theodolite?.type).toBe("stdio");
    expectLaunchesTheodolite(doc.servers.theodolite as StdioEntry);
  });

  test("Codex: [mcp_servers.theodolite] with command, args, env and numeric timeouts", () => {
    const doc = parseToml(snippet("codex").body) as {
      mcp_servers: Record<string, StdioEntry & Record<string, unknown>>;
    };
    const entry = doc.mcp_servers.theodolite as StdioEntry & Record<string, unknown>;
    expectLaunchesTheodolite(entry);
    expect(typeof entry.tool_timeout_sec).toBe("number");
    expect(typeof entry.startup_timeout_sec).toBe("number");
  });

  test("DSH: one dsh-mcp-client entry shaped like cordis.patch.yml", () => {
    const doc = parseBlockYaml(snippet("dsh").body) as Record<string, Yaml>[];
    expect(doc).toHaveLength(1);
    const entry = doc[0] as Record<string, Yaml>;
    expect(entry.id).toBe("mcp-theodolite");
    expect(entry.name).toBe("@deepseek-ai/dsh-mcp-client");
    const config = entry.config as Record<string, Yaml>;
    expect(config.serverName).toBe("theodolite");
    expect(config.transport).toBe("stdio");
    expectLaunchesTheodolite(config as unknown as StdioEntry);
    expect(typeof config.toolCallTimeoutMs).toBe("number");
    expect(typeof config.failOnStartupError).toBe("boolean");
    const reconnect = config.reconnect as Record<string, Yaml>;
    expect(typeof reconnect.enabled).toBe("boolean");
    for (const k of ["initialDelayMs", "maxDelayMs", "maxAttempts"]) {
      expect(typeof reconnect[k]).toBe("number");
    }
  });

  test("MCP Inspector: the bridge config through THEODOLITE_CONFIG, never a --config the Inspector would take", () => {
    const argv = snippet("inspector").body.trim().split(/\s+/);
    expect(argv.slice(0, 2)).toEqual(["npx", "@modelcontextprotocol/inspector"]);
    expect(argv).not.toContain("--config");
    const at = argv.indexOf("-e");
    const [name, value] = (argv[at + 1] ?? "").split("=");
    expect(name).toBe(CONFIG_ENV_VAR);
    expect(argv.at(-1)).toBe("/path/to/theodolite"); // the server command comes last
    // what the bridge does with that environment
    expect(resolveConfigPath(undefined, { [name as string]: value })).toBe("/path/to/bridge.toml");
  });

  test("--check-config: the README's output has the real output's shape (one JSON line, then ok/FAIL lines)", async () => {
    const CHECK = /^(ok {2}|FAIL) [\w."-]+ \S/;
    const shown = snippet("check-config").body.split("\n");
    expect(shown[0]).toMatch(
      /^\{"bridge":\{.*\},"workspaces":\[.*\],"servers":\[.*\],"source":".*"\}$/,
    );
    for (const line of shown.slice(1)) expect(line).toMatch(CHECK);
    // the same command on a real file
    const dir = tempDir("theodolite-readme-check-");
    const server = join(dir, "typescript-language-server");
    writeFileSync(server, "#!/bin/sh\necho 5.3.0\n");
    chmodSync(server, 0o755);
    const raw = parseToml(snippet("bridge-toml").body) as {
      workspace: { root: string }[];
      server: { command: string }[];
    };
    for (const ws of raw.workspace) ws.root = dir;
    for (const sv of raw.server) sv.command = server;
    const path = join(dir, "bridge.toml");
    writeFileSync(path, stringify(raw));
    const lines: string[] = [];
    await runCheckConfig(path, (l) => lines.push(l));
    const effective = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
    expect(Object.keys(effective)).toEqual(["bridge", "workspaces", "servers", "source"]);
    for (const line of lines.slice(1)) expect(line).toMatch(CHECK);
    // every subject the README shows is one the command checks
    const subjects = (ls: string[]) => ls.slice(1).map((l) => l.split(" ").filter(Boolean)[1]);
    for (const subject of subjects(shown)) expect(subjects(lines)).toContain(subject);
  });

  test("the minimal bridge.toml passes the real configuration validation", () => {
    const raw = parseToml(snippet("bridge-toml").body) as { workspace: { root: string }[] };
    for (const ws of raw.workspace) ws.root = tmpdir(); // roots must exist; the rest is as written
    const config = validateConfig(raw, "README.md");
    expect(config.servers.map((s) => s.name)).toEqual(["typescript-language-server"]);
  });
});

describe("parseBlockYaml (the DSH snippet's checker)", () => {
  test("reads nested mappings, sequences and scalars", () => {
    const doc = parseBlockYaml(
      [
        "- id: a",
        "  n: 3",
        "  ok: false",
        "  list:",
        "    - 'x y'",
        '    - "z"',
        "  m:",
        "    k: v",
      ].join("\n"),
    );
    expect(doc).toEqual([{ id: "a", n: 3, ok: false, list: ["x y", "z"], m: { k: "v" } }]);
  });

  test.each([
    ["a child indented deeper than its siblings", "a:\n  b: 1\n    c: 2"],
    ["a key without a value", "a:\nb: 1"],
    ["a duplicate key", "a: 1\na: 2"],
    ["a tab", "a:\n\tb: 1"],
    ["a flow mapping", "a: {b: 1}"],
    ["an unquoted value with a colon", "a: b: c"],
  ])("rejects %s", (_why, text) => {
    expect(() => parseBlockYaml(text)).toThrow();
  });
});
