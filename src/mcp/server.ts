/**
 * MCP wiring on theodolite's own protocol layer (protocol.ts): tool listing and dispatch,
 * so that (a) every failure is a SPEC §4.6 envelope (schema violations, non-object
 * `arguments` included, are `InvalidArgument`, unknown or unregistered tools
 * `UnsupportedMethod`), and (b) the apply class is listed per client identity (SPEC §7.1).
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { BridgeContext } from "../bridge.ts";
import { BridgeError } from "../errors.ts";
import type { GateTool } from "../gate/transcript.ts";
import { log } from "../log.ts";
import { isJsonObject } from "../normalize/json.ts";
import { callWorkspaceRoot } from "../router.ts";
import { VERSION } from "../version.ts";
import { argumentsNotObject, schemaRejected, toolUnavailable } from "./call-errors.ts";
import { echoList, echoText, INSTRUCTIONS } from "./conventions.ts";
import { describeTools } from "./describe.ts";
import { errorResult, resultFromJson } from "./envelope.ts";
import { McpConnection, type MessageTransport, type RequestContext } from "./protocol.ts";
import {
  type CallContext,
  measureAnswer,
  type ProgressReport,
  type ToolDefinition,
} from "./tool.ts";

/**
 * `a.b.0.c: message` for the first few zod issues. Unknown keys are the caller's: listed
 * bounded (echoList), as every piece of input an error repeats.
 */
export function describeZodError(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((issue) => {
      const path =
        issue.path.length === 0
          ? "(arguments)"
          : issue.path.map((p) => echoText(String(p))).join(".");
      const message =
        issue.code === "unrecognized_keys"
          ? `unrecognized keys: ${echoList(issue.keys)}`
          : issue.message;
      return `${path}: ${message}`;
    })
    .join("; ");
}

/** What the `tools/call` handler reads of a request (jsonrpc-check.ts made `params` an object when present). */
interface ToolCallRequest {
  method: "tools/call";
  params?: {
    name?: unknown;
    arguments?: unknown;
    _meta?: { progressToken?: string | number };
  };
}

function describeJsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}

/** `published`: `describeTools(tools)` computed ahead (surface.ts), or computed on first use. */
export function createMcpConnection(
  bridge: BridgeContext,
  tools: readonly ToolDefinition[],
  transport: MessageTransport,
  published?: Tool[],
): McpConnection {
  const connection = new McpConnection(transport, {
    serverInfo: { name: "theodolite", version: VERSION },
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  const byName = new Map(tools.map((t) => [t.name, t]));
  // The one source of the client identity (SPEC §7.1): the first `initialize` answered
  // (protocol.ts). Not the `initialized` notification: a client that skips it has the same
  // identity for the gate, the listing and session_status.
  const clientName = (): string | null => {
    const name = connection.client()?.name;
    return typeof name === "string" && name.length > 0 ? name : null;
  };

  connection.oninitialized = () => {
    log.info(`client initialized: ${clientName() ?? "(no name)"}`);
  };

  // described once, on first use: the surface is fixed for the process's life
  let described: Tool[] | undefined = published;
  connection.handle("tools/list", () => {
    described ??= describeTools(tools);
    const apply = bridge.applyClassFor(clientName());
    // the client has its tools: zero-config discovery starts now, off the handshake and
    // this answer (SPEC §2.1); a call before any tools/list starts it itself
    setImmediate(() => void bridge.ready());
    return { tools: described.filter((_, i) => apply || tools[i]?.toolClass === "read") };
  });

  // every bad argument — a non-object `arguments` included — is a SPEC §4.6 InvalidArgument
  // result; our results are valid by construction (envelope.ts), and the stdio suites
  // check them with the SDK's client
  connection.handle("tools/call", (request, ctx) => callTool(request as ToolCallRequest, ctx));

  async function callTool(
    request: ToolCallRequest,
    extra: RequestContext,
  ): Promise<CallToolResult> {
    const name = request.params?.name;
    if (typeof name !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "tools/call needs params.name, a string");
    }
    const tool = byName.get(name);
    const client = clientName();
    try {
      if (tool?.toolClass === "apply" && !bridge.applyClassFor(client)) {
        // a registration decision is a gate decision too: recorded (SPEC §7.2)
        bridge.recordUnregisteredApply(name as GateTool, client);
      }
      if (!tool || (tool.toolClass === "apply" && !bridge.applyClassFor(client))) {
        throw toolUnavailable(echoText(name), tool?.toolClass === "apply");
      }
      // zero-config: the discovered servers are in place (SPEC §2.1)
      await bridge.ready();
      const refused = name === "session_status" ? undefined : bridge.refused();
      if (refused) throw refused;
      // absent is no arguments; null, arrays and scalars are refused
      const raw = request.params?.arguments === undefined ? {} : request.params.arguments;
      if (!isJsonObject(raw)) {
        throw argumentsNotObject(describeJsonType(raw), name);
      }
      tool.preValidate?.(raw);
      const parsed = tool.input.safeParse(raw);
      if (!parsed.success) {
        throw schemaRejected(describeZodError(parsed.error), name);
      }
      const token = request.params?._meta?.progressToken;
      let step = 0;
      const progress = (p: ProgressReport): void => {
        if (token === undefined) return;
        step = Math.max(step + 1, p.progress);
        extra.notify("notifications/progress", { progressToken: token, ...p, progress: step });
      };
      const ctx: CallContext = { bridge, client, signal: extra.signal, progress };
      const answer = await tool.handler(parsed.data, ctx);
      return resultFromJson(
        answer.result,
        answer.json ?? measureAnswer(answer, bridge.config.bridge),
      );
    } catch (err) {
      if (!(err instanceof BridgeError)) log.error(`tool ${name} failed: ${String(err)}`);
      return errorResult(err, callWorkspaceRoot(bridge.config, request.params?.arguments));
    }
  }

  return connection;
}
