/** What zero-config answers in a directory it refuses (SPEC §2.1): `WorkspaceRefused`. */
import { BridgeError } from "../errors.ts";
import type { Refusal } from "./root-guard.ts";

/** Every tool call but session_status, in a refused zero-config directory (`workspace`: its name). */
export function refusedError(workspace: string, r: Refusal): BridgeError {
  return new BridgeError(
    "WorkspaceRefused",
    `zero-config does not serve the directory it was started in (workspace "${workspace}"): ${r.reason}`,
    { hint: r.hint, details: { workspace, reason: r.reason } },
  );
}
