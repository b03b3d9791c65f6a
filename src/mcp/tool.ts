/**
 * What a tool is: a name, an agent-facing description, a strict zod input
 * schema, an output schema for `structuredContent`, annotations, its class
 * (read tools are always listed; apply tools only through the gate, SPEC §7.1)
 * and a thin handler. Handlers return the structured object; the server wraps
 * it with the envelope and the size cap.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { BridgeContext } from "../bridge.ts";
import type { BridgeConfig } from "../config/types.ts";
import { enforceSizeCap } from "../normalize/cap.ts";
import type { PagedList } from "../normalize/too-large.ts";

export type ToolClass = "read" | "apply";

export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallContext {
  bridge: BridgeContext;
  /** the MCP client's `clientInfo.name`, or null when it gave none */
  client: string | null;
  signal: AbortSignal;
  /** relays readiness progress as MCP notifications/progress; a no-op without a progressToken */
  progress: (p: ProgressReport) => void;
}

/** A handler's answer: the structured result and how many items it holds (for ResultTooLarge). */
export interface ToolAnswer {
  result: Record<string, unknown>;
  count: number;
  /** the whole list `limit` pages and the call's offset: ResultTooLarge proposes a limit that fits */
  pages?: PagedList;
  /** for a tool that does not page: items ResultTooLarge summarizes per file */
  summaryItems?: readonly unknown[];
  /**
   * The result's JSON, already measured by `measureAnswer`: for a tool that must know its
   * answer fits before it acts (rename_apply writes only when it can answer, SPEC §4.4).
   */
  json?: string;
}

/**
 * The answer's JSON within max_result_bytes, or ResultTooLarge (SPEC §4.4) with the help
 * the answer carries; `hint` replaces the default advice when no `limit` helps.
 */
export function measureAnswer(
  answer: ToolAnswer,
  b: Pick<BridgeConfig, "max_result_bytes" | "max_limit">,
  hint?: string,
): string {
  return enforceSizeCap(answer.result, answer.count, b.max_result_bytes, {
    pages: answer.pages,
    summaryItems: answer.summaryItems,
    maxLimit: b.max_limit,
    ...(hint !== undefined ? { hint } : {}),
  });
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  toolClass: ToolClass;
  /** optional check on the raw arguments before schema validation (code_action_apply: PayloadRejected) */
  preValidate?: (raw: Record<string, unknown>) => void;
  handler: (args: z.infer<Input>, ctx: CallContext) => Promise<ToolAnswer>;
}

export function defineTool<Input extends z.ZodObject>(def: ToolDefinition<Input>): ToolDefinition {
  return def as unknown as ToolDefinition;
}

/** The apply class (SPEC §7): writes files, not idempotent (handles are single-use). */
export const WRITES_FILES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** Read tools: the destructive and idempotent hints only mean something when not read-only. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
