/**
 * MCP clients other than the TypeScript SDK against the compiled binary (SPEC §4.8): the
 * Python MCP SDK and the MCP Inspector CLI, both installed (pinned) by .ci/setup-servers
 * into test/servers. Each is required under CI; elsewhere a missing one is skipped loudly.
 *   THEODOLITE_TEST_PYTHON     a python whose `import mcp` works (default: the venv
 *                              test/servers/python, else python3)
 *   THEODOLITE_TEST_INSPECTOR  the Inspector's `mcp-inspector` executable (default:
 *                              test/servers/node_modules/.bin/mcp-inspector)
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "../../src/mcp/tools/index.ts";
import { ensureBinary, fakeServer, writeConfig } from "../support/bridge.ts";
import { requiredUnderCI } from "../support/real-bridge.ts";
import { TEST_SERVERS_DIR } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterAll(removeTempDirs);

/** what a client without the apply class is offered (SPEC §4.1) */
const READ_TOOLS = TOOLS.filter((t) => t.toolClass === "read").length;

/** The Inspector CLI's clientInfo.name, allowlisted below so it is offered the apply class too. */
const INSPECTOR_CLIENT = "inspector-cli";

function configWithHover(): string {
  const root = tempDir();
  writeFileSync(join(root, "a.fake"), "alpha beta\n");
  return writeConfig({
    // a dedicated bridge per client, by the configuration key (SPEC §2.2)
    bridge: { mutation: "gated", mutation_allowlist: [INSPECTOR_CLIENT], shared: false },
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [
      fakeServer("fake", { responses: { "textDocument/hover": { contents: "from fake" } } }),
    ],
  });
}

const VENV_PYTHON = join(TEST_SERVERS_DIR, "python", "bin", "python");
const INSPECTOR = join(TEST_SERVERS_DIR, "node_modules", ".bin", "mcp-inspector");

/** The python to run the Python MCP SDK client with: the setup's venv unless overridden. */
const PYTHON =
  process.env.THEODOLITE_TEST_PYTHON ?? (existsSync(VENV_PYTHON) ? VENV_PYTHON : "python3");
const python = Bun.spawnSync([PYTHON, "-c", "import mcp"], { stdout: "ignore", stderr: "ignore" })
  .success
  ? PYTHON
  : null;
const inspector =
  process.env.THEODOLITE_TEST_INSPECTOR ?? (existsSync(INSPECTOR) ? INSPECTOR : null);

const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" };

const PYTHON_CLIENT = `
import asyncio, json, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=["--config", sys.argv[2]], env=${JSON.stringify(env)})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            hover = await session.call_tool("hover", {"file": "a.fake", "line": 1, "column": 1})
            missing = await session.call_tool("hover", {"file": "nope.fake", "line": 1, "column": 1})
            status = await session.call_tool("session_status", {})
            def structured(r):
                return getattr(r, "structured_content", None) or getattr(r, "structuredContent", None)
            def is_error(r):
                return bool(getattr(r, "is_error", None) or getattr(r, "isError", None))
            print(json.dumps({
                "tools": len(tools.tools),
                "hover": structured(hover), "hover_error": is_error(hover),
                "missing": json.loads(missing.content[0].text)["code"], "missing_error": is_error(missing),
                "client": structured(status)["bridge"]["client"],
            }))

asyncio.run(main())
`;

describe("other MCP clients", () => {
  const noPython = `no \`import mcp\` in ${PYTHON} (set THEODOLITE_TEST_PYTHON)`;
  requiredUnderCI("Python MCP SDK", python, (p) => expect(p).toBe(PYTHON), noPython);
  const noInspector = `no ${INSPECTOR} (set THEODOLITE_TEST_INSPECTOR)`;
  const inspectorFound = (i: string) => expect(i.length).toBeGreaterThan(0);
  requiredUnderCI("MCP Inspector CLI", inspector, inspectorFound, noInspector);

  test.skipIf(!python)(
    "the Python MCP SDK: handshake, tools/list, a result and a tool error",
    async () => {
      if (!python) throw new Error("no python with the MCP SDK");
      const script = join(tempDir(), "client.py");
      await Bun.write(script, PYTHON_CLIENT);
      const r = Bun.spawnSync([python, script, ensureBinary(), configWithHover()], {
        stdout: "pipe",
        stderr: "pipe",
        timeout: 60_000,
      });
      expect(r.exitCode, r.stderr.toString()).toBe(0);
      const out = JSON.parse(r.stdout.toString().trim().split("\n").pop() as string);
      expect(out).toEqual({
        tools: READ_TOOLS,
        hover: { text: "from fake", range: null },
        hover_error: false,
        missing: "FileNotFound",
        missing_error: true,
        client: "mcp",
      });
    },
    90_000,
  );

  test.skipIf(!inspector)(
    "the MCP Inspector CLI: every tool's schemas portable (--strict), tools/list and tools/call, exit 5 on a tool error",
    () => {
      if (!inspector) throw new Error("no MCP Inspector CLI");
      // it exits 5 on a tool error (isError), as the README says; 0 on success
      const run = (...args: string[]) => runExpecting(0, ...args);
      const runExpecting = (exitCode: number, ...args: string[]) => {
        const r = Bun.spawnSync(
          [inspector, "--cli", "-e", `THEODOLITE_CONFIG=${config}`, ensureBinary(), ...args],
          { stdout: "pipe", stderr: "pipe", timeout: 60_000 },
        );
        expect(r.exitCode, r.stderr.toString()).toBe(exitCode);
        return JSON.parse(r.stdout.toString());
      };
      const config = configWithHover();
      // the whole surface, apply class included: the Inspector's schema lint reports its
      // findings under schemaFindings and exits non-zero on an error-severity one
      const linted = run("--method", "tools/list", "--strict", "--format", "json") as {
        result: { tools: { name: string }[] };
        schemaFindings?: unknown[];
      };
      expect(linted.schemaFindings ?? []).toEqual([]);
      expect(linted.result.tools).toHaveLength(TOOLS.length);
      const status = run("--method", "tools/call", "--tool-name", "session_status") as {
        structuredContent: { bridge: { client: string; apply_class_registered: boolean } };
      };
      expect(status.structuredContent.bridge.client).toBe(INSPECTOR_CLIENT);
      expect(status.structuredContent.bridge.apply_class_registered).toBe(true);
      const hover = run(
        "--method",
        "tools/call",
        "--tool-name",
        "hover",
        "--tool-arg",
        "file=a.fake",
        "--tool-arg",
        "line=1",
        "--tool-arg",
        "column=1",
      ) as { structuredContent: unknown };
      expect(hover.structuredContent).toEqual({ text: "from fake", range: null });
      const refused = runExpecting(5, "--method", "tools/call", "--tool-name", "hover") as {
        isError: boolean;
        content: { text: string }[];
      };
      expect(refused.isError).toBe(true);
      expect(JSON.parse(refused.content[0]?.text ?? "{}").code).toBe("InvalidArgument");
    },
    120_000,
  );
});
