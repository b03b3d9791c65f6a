/**
 * The end the apply tools that compute their edit set again share (rename_apply,
 * formatting_apply; SPEC §7.2–§7.4): the gate decides — no handle; a target whose disk text
 * is not the text the server computed on is drift, answered `WorkspaceDrift` — and the one
 * applier writes every target or none, its edits counted in the lines the server reads.
 */
import { applyEdits } from "../../apply/apply-edits.ts";
import { changedSinceComputed } from "../../apply/apply-errors.ts";
import type { EditTargets } from "../../apply/handle-plan.ts";
import { admitApply } from "../../gate/admit.ts";
import type { GateTool } from "../../gate/transcript.ts";
import type { CallContext } from "../tool.ts";
import type { FileCall } from "./common.ts";

export async function admitAndWrite(
  ctx: CallContext,
  call: FileCall,
  tool: GateTool,
  planned: EditTargets,
  stale: readonly { abs: string }[],
): Promise<void> {
  const { bridge } = ctx;
  const b = bridge.config.bridge;
  const ws = call.session.workspace;
  admitApply(
    b,
    bridge.transcript,
    {
      tool,
      client: ctx.client,
      workspace: ws.name,
      server: call.session.server.name,
      handle: "not_applicable",
      version: stale.length > 0 ? "drift" : "match",
      files: planned.targets.length,
    },
    (reason) =>
      reason === "drift"
        ? changedSinceComputed(stale.map((t) => ws.display(t.abs)).sort(), `call ${tool} again`)
        : undefined,
  );
  if (planned.files.length === 0) return;
  await applyEdits(
    {
      workspace: ws,
      files: planned.files,
      snapshots: planned.snapshots,
      encoding: call.session.process.encoding,
      // its edits, in the lines it reads since they were computed (SPEC §5)
      lines: [call.session.lines],
      maxFileBytes: b.max_file_bytes,
      journal: bridge.journal,
      lane: bridge.lane,
    },
    bridge.sessions,
  );
}
