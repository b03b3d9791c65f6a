/**
 * The bridge's state for one MCP connection: configuration, sessions, the
 * client identity from the handshake, and the mutation gate's stores. Tools
 * receive it through their call context.
 */
import type { Config } from "./config/types.ts";
import { applyClassRegistered, decide } from "./gate/decide.ts";
import { HandleStore } from "./gate/handles.ts";
import { GateTranscript } from "./gate/transcript.ts";
import type { SessionHooks } from "./session/hooks.ts";
import { SessionManager } from "./session/manager.ts";
import { SnapshotStore } from "./snapshots.ts";

export class BridgeContext {
  readonly sessions: SessionManager;
  readonly handles = new HandleStore();
  readonly transcript = new GateTranscript();
  /** diagnostics results `since` can compare with (SPEC §6.1) */
  readonly snapshots = new SnapshotStore();
  readonly startedAt = Date.now();
  /** `clientInfo.name` from the MCP handshake; a routing label, not authentication (SPEC §8) */
  client: string | null = null;

  constructor(
    readonly config: Config,
    hooks: SessionHooks,
  ) {
    this.sessions = new SessionManager(config, hooks);
  }

  setClient(name: string | null): void {
    this.client = name;
  }

  /** SPEC §7.1: the apply class exists only for a gated bridge and an allowlisted client. */
  applyClassFor(client: string | null): boolean {
    const b = this.config.bridge;
    return applyClassRegistered(b.mutation, client, b.mutation_allowlist);
  }

  /** Record the gate's refusal of an apply tool this client does not have (SPEC §7.1, §7.2). */
  recordUnregisteredApply(tool: "code_action_apply" | "rename_apply", client: string | null): void {
    const b = this.config.bridge;
    const decision = decide({
      mutation: b.mutation,
      identity: client,
      allowlist: b.mutation_allowlist,
      handle: "not_applicable",
      version: "unchecked",
    });
    this.transcript.record({
      tool,
      client,
      workspace: null,
      server: null,
      allow: false,
      reason: decision.reason,
      files: 0,
    });
  }

  async shutdown(): Promise<void> {
    await this.sessions.shutdownAll();
  }
}
