/**
 * session_restart (SPEC §9.1): the only way a dead session comes back. Stops
 * whatever runs for the pair (the whole tree, SPEC §9.2), starts it fresh and
 * waits until ready. Handles issued before the restart become foreign (SPEC §7.3).
 */
import { z } from "zod";
import { resolveWorkspace, routeOne } from "../../router.ts";
import { serverArg, workspaceArg } from "../conventions.ts";
import { defineTool } from "../tool.ts";
import { waitContext } from "./common.ts";

const input = z.object({ workspace: workspaceArg, server: serverArg }).strict();
const output = z.object({ workspace: z.string(), server: z.string(), state: z.string() });

export const sessionRestartTool = defineTool({
  name: "session_restart",
  title: "Restart a session",
  description:
    "Stop a session's whole process tree and start it fresh; the only way back from a crashed server.",
  input,
  output,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  toolClass: "read",
  handler: async (args, ctx) => {
    const { config, sessions } = ctx.bridge;
    const ws = resolveWorkspace(config, args.workspace);
    const server = routeOne(config, ws, { server: args.server, role: "semantics" });
    const session = await sessions.restart(sessions.get(ws.name, server.name), waitContext(ctx));
    return {
      result: { workspace: ws.name, server: server.name, state: session.life.state },
      count: 1,
    };
  },
});
