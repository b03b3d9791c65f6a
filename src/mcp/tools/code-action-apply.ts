/**
 * code_action_apply (SPEC §7.3): apply class only. Takes a handle and nothing
 * else; the gate decides (SPEC §7.2), the decision is recorded, an allowed
 * apply consumes the handle before anything is written, and the applier
 * writes all or nothing (SPEC §7.4). The session follows the disk first, every
 * target is re-hashed against the listing, and an edit the listing could not vouch for, or
 * one computed before other files changed, is EditIncomplete (SPEC §5, §7.3).
 */
import { z } from "zod";
import { applyEdits, readTargets } from "../../apply/apply-edits.ts";
import { judgeAction } from "../../apply/complete.ts";
import { admitApply } from "../../gate/admit.ts";
import { allowedWithoutHandle } from "../../gate/gate-errors.ts";
import type { HandleEntry } from "../../gate/handles.ts";
import { catchUp } from "../../session/catch-up.ts";
import { echoList, echoNames } from "../conventions.ts";
import { defineTool, WRITES_FILES } from "../tool.ts";
import { waitContext } from "./common.ts";
import { payloadRejected } from "./tool-errors.ts";

const input = z.object({ handle: z.string().min(1).max(256) }).strict();

const output = z.object({
  applied: z.literal(true),
  changes: z.array(z.object({ file: z.string(), edits: z.number().int() })),
});

export const codeActionApplyTool = defineTool({
  name: "code_action_apply",
  title: "Apply a code action",
  description:
    "Apply one action listed by code_actions, by its single-use `handle`; all target files " +
    "written or none.",
  input,
  output,
  annotations: WRITES_FILES,
  toolClass: "apply",
  preValidate: (raw) => {
    const extra = Object.keys(raw).filter((k) => k !== "handle");
    if (extra.length > 0) {
      throw payloadRejected(echoList(extra), echoNames(extra));
    }
  },
  handler: async (args, ctx) => {
    const { bridge } = ctx;
    const b = bridge.config.bridge;
    // the handle looked up once (one SHA-256), and its session
    const ref = bridge.handles.find(args.handle);
    const owner = ref.entry?.sessionKey;
    const session =
      owner === undefined ? undefined : bridge.sessions.all().find((s) => s.key === owner);
    // the session's open documents follow the disk before the targets are checked (SPEC §5)
    if (session?.life.state === "ready") await catchUp(session, waitContext(ctx));
    // from here to the claim nothing awaits; the handle is judged as it is now: used by a
    // concurrent apply, or issued before a restart of its session during the wait, it is refused
    const current = session?.life.isLive()
      ? { sessionKey: session.key, sessionEpoch: session.life.epoch }
      : null;
    const inspected = ref.inspect(current);
    // every target read once: the drift check and the text the edit is applied to
    const read =
      inspected.state === "valid" && session
        ? readTargets(session.workspace, inspected.entry.targets, b.max_file_bytes)
        : undefined;
    const version = read === undefined ? "unchecked" : read.drifted.length > 0 ? "drift" : "match";
    // a valid handle whose targets are as listed: is its edit still complete? (SPEC §7.3)
    if (version === "match" && inspected.state === "valid" && session) {
      const { vouch, targets } = inspected.entry;
      const incomplete = judgeAction({
        untrackedAtListing: vouch.untracked,
        unloadedAtListing: vouch.unloaded,
        untrackedNow: session.disk.untracked(),
        changedSince: session.changedFiles.since(vouch.mark),
        targets: targets.map((t) => t.abs),
      });
      if (incomplete) throw incomplete;
    }
    let entry: HandleEntry | undefined;
    admitApply(b, bridge.transcript, {
      tool: "code_action_apply",
      client: ctx.client,
      workspace: session?.workspace.name ?? null,
      server: session?.server.name ?? null,
      handle: inspected.state,
      version,
      files: inspected.entry?.targets.length ?? 0,
      // consumed before any write: a second apply of the same handle is "used" (SPEC §7.3)
      claim: () => {
        entry = bridge.handles.consume(args.handle);
        return entry !== undefined;
      },
    });
    // allowed means a valid handle of a live session, whose targets were read above
    if (!entry || !session || !read) {
      throw allowedWithoutHandle();
    }
    const changes = await applyEdits(
      {
        workspace: session.workspace,
        files: entry.files,
        snapshots: read.snapshots,
        encoding: entry.encoding,
        lines: entry.lines,
        maxFileBytes: b.max_file_bytes,
        journal: bridge.journal,
        lane: bridge.lane,
      },
      bridge.sessions,
    );
    return { result: { applied: true, changes }, count: changes.length };
  },
});
