/**
 * MCP clients other than the TypeScript SDK against the compiled binary (SPEC §4.8): the
 * Python MCP SDK and the MCP Inspector CLI. Neither is a dependency of the project; each
 * runs when the machine has it and is skipped loudly otherwise:
 *   THEODOLITE_TEST_PYTHON     a python whose `import mcp` works (default: python3)
 *   THEODOLITE_TEST_INSPECTOR  the Inspector's `mcp-inspector` executable (npm
 *                              @modelcontextprotocol/inspector)
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TOOLS } from "../../src/mcp/tools/index.ts";
import {
  cleanupTempDirs,
  ensureBinary,
  fakeServer,
  tempDir,
  writeConfig,
} from "../support/bridge.ts";
import { skipLoudly } from "../support/real-servers.ts";

afterAll(cleanupTempDirs);

/** what a client without the apply class is offered (SPEC §4.1) */
const READ_TOOLS = TOOLS.filter((t) => t.toolClass === "read").length;

function configWithHover(): string {
  const root = tempDir();
  Bun.write(join(root, "a.fake"), "alpha beta\n");
  return writeConfig({
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [
      fakeServer("fake", { responses: { "textDocument/hover": { contents: "from fake" } } }),
    ],
  });
}

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
  test("the Python MCP SDK: handshake, tools/list, a result and a tool error", async () => {
    const python = process.env.THEODOLITE_TEST_PYTHON ?? "python3";
    const probe = Bun.spawnSync([python, "-c", "import mcp"], {
      stdout: "ignore",
      stderr: "ignore",
    });
    if (!probe.success) {
      skipLoudly("Python MCP SDK", `(no \`import mcp\` in ${python}; set THEODOLITE_TEST_PYTHON)`);
      return;
    }
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
  }, 90_000);

  test("the MCP Inspector CLI: tools/list and tools/call", () => {
    const inspector = process.env.THEODOLITE_TEST_INSPECTOR;
    if (inspector === undefined || inspector === "") {
      skipLoudly("MCP Inspector CLI", "(set THEODOLITE_TEST_INSPECTOR to its mcp-inspector)");
      return;
    }
    const run = (...args: string[]) => {
      const r = Bun.spawnSync(
        [inspector, "--cli", "-e", `THEODOLITE_CONFIG=${config}`, ensureBinary(), ...args],
        { stdout: "pipe", stderr: "pipe", timeout: 60_000 },
      );
      expect(r.exitCode, r.stderr.toString()).toBe(0);
      return JSON.parse(r.stdout.toString());
    };
    const config = configWithHover();
    const listed = run("--method", "tools/list") as { tools: { name: string }[] };
    expect(listed.tools).toHaveLength(READ_TOOLS);
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
  }, 120_000);
});
