/**
 * The fixed tool list (SPEC §4.1, §7.1). Adding or changing a tool changes
 * the golden surface (test/golden/tool-surface.json) deliberately.
 */
import type { ToolDefinition } from "../tool.ts";
import { callHierarchyTool } from "./call-hierarchy.ts";
import { codeActionApplyTool } from "./code-action-apply.ts";
import { codeActionsTool } from "./code-actions.ts";
import { completionTool } from "./completion.ts";
import { declarationTool } from "./declaration.ts";
import { definitionTool } from "./definition.ts";
import { diagnosticsTool } from "./diagnostics.ts";
import { documentSymbolsTool } from "./document-symbols.ts";
import { formattingTool } from "./formatting.ts";
import { formattingApplyTool } from "./formatting-apply.ts";
import { hoverTool } from "./hover.ts";
import { implementationTool } from "./implementation.ts";
import { inlayHintsTool } from "./inlay-hints.ts";
import { referencesTool } from "./references.ts";
import { renameApplyTool } from "./rename-apply.ts";
import { renamePreviewTool } from "./rename-preview.ts";
import { sessionRestartTool } from "./session-restart.ts";
import { sessionStatusTool } from "./session-status.ts";
import { signatureHelpTool } from "./signature-help.ts";
import { symbolSourceTool } from "./symbol-source.ts";
import { typeDefinitionTool } from "./type-definition.ts";
import { typeHierarchyTool } from "./type-hierarchy.ts";
import { workspaceSymbolsTool } from "./workspace-symbols.ts";

export const TOOLS: readonly ToolDefinition[] = [
  sessionStatusTool,
  diagnosticsTool,
  hoverTool,
  definitionTool,
  declarationTool,
  typeDefinitionTool,
  implementationTool,
  referencesTool,
  callHierarchyTool,
  typeHierarchyTool,
  documentSymbolsTool,
  symbolSourceTool,
  workspaceSymbolsTool,
  codeActionsTool,
  renamePreviewTool,
  completionTool,
  signatureHelpTool,
  inlayHintsTool,
  formattingTool,
  sessionRestartTool,
  codeActionApplyTool,
  renameApplyTool,
  formattingApplyTool,
];
