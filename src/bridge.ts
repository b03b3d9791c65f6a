/**
 * The bridge's state: what every MCP connection of one bridge shares
 * (`SharedBridge`: configuration, sessions, applies) and what each connection
 * owns (`BridgeContext`: the gate's handles and transcript, the `since`
 * snapshots). A dedicated bridge has one connection; a shared one (SPEC §2.2)
 * one per client. Tools receive the connection's context through their call
 * context, beside the client identity (read from the handshake per call,
 * mcp/server.ts).
 *
 * In zero-config mode the configuration starts as a shell (the workspace, no
 * server) and discovery completes it (SPEC §2.1): `ready()` starts discovery
 * once and resolves when the discovered configuration is in place. Tool calls
 * wait for it; tools/list does not need it (the surface is fixed). A shell
 * refused for its directory may become one for a root the client lists; when
 * the client's roots change, the choice is made again (`rootsChanged`).
 */

import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { ApplyJournal, stateDirectories } from "./apply/journal.ts";
import { ApplyLane } from "./apply/lane.ts";
import { recoverApplies } from "./apply/recover.ts";
import { bounded } from "./bounded.ts";
import { loadConfigFile, resolveConfigPath } from "./config/load.ts";
import type { Config } from "./config/types.ts";
import type { RootsAnswer } from "./discovery/client-roots.ts";
import { refusedError } from "./discovery/root-errors.ts";
import type { BridgeError } from "./errors.ts";
import { judgeApply } from "./gate/admit.ts";
import { applyClassRegistered } from "./gate/decide.ts";
import { HandleStore } from "./gate/handles.ts";
import { type GateTool, GateTranscript } from "./gate/transcript.ts";
import { log } from "./log.ts";
import { resolveWorkspace } from "./router.ts";
import type { SessionHooks } from "./session/hooks.ts";
import { SessionManager } from "./session/manager.ts";
import { SnapshotStore } from "./session/snapshots.ts";
import { realRoot } from "./workspace/files.ts";
import { InotifyHub } from "./workspace/watch-hub.ts";
import type { Workspace } from "./workspace/workspace.ts";

/** Zero-config's steps (SPEC §2.1): which shell to serve, then the servers for it. */
export interface ZeroConfigSteps {
  /** the shell to discover for: the start's, or one for a root the client lists */
  shell(start: Config): Promise<Config>;
  discover(shell: Config, signal: AbortSignal): Promise<Config>;
}

/** A configuration to serve, and zero-config's completion of it when no file was given. */
export interface BridgeStart {
  config: Config;
  /** zero-config: completes the configuration (SPEC §2.1), asking the client's roots through `ask` */
  zeroConfig?: (ask: () => Promise<RootsAnswer>) => ZeroConfigSteps;
}

/** The configuration a bridge starts with: the file (`--config`, THEODOLITE_CONFIG) or zero-config's shell. */
export async function loadStart(argPath: string | undefined): Promise<BridgeStart> {
  const path = resolveConfigPath(argPath, process.env);
  if (path !== undefined) return { config: loadConfigFile(path) };
  // zero-config never fails to start: the shell now, the servers after the handshake
  const { zeroConfigShell, discoverZeroConfig } = await import("./discovery/zero-config.ts");
  const { shellForRoots } = await import("./discovery/client-roots.ts");
  return {
    config: zeroConfigShell(process.cwd()),
    zeroConfig: (ask) => ({
      shell: (start) => shellForRoots(start, ask),
      discover: (shell, signal) => discoverZeroConfig(shell, signal),
    }),
  };
}

/** What the connections of one bridge share: configuration, sessions, applies. */
export class SharedBridge {
  private current: Config;
  private manager: SessionManager;
  private discovering: Promise<void> | undefined;
  /** a new choice of root is queued behind `discovering`, not begun yet */
  private rechoosing = false;
  private readonly start: Config;
  private readonly stopDiscovery = new AbortController();
  readonly startedAt = Date.now();
  /** records of applies, and what the recoveries at start did (SPEC §7.4) */
  readonly journal: ApplyJournal;
  /** one apply at a time, a file at a time; the shutdown stops one that swapped nothing (§9.2) */
  readonly lane: ApplyLane;
  /** one inotify instance for every workspace's watches, whatever configuration is served */
  private readonly hub = new InotifyHub();

  constructor(
    config: Config,
    private readonly hooks: SessionHooks,
    private readonly zeroConfig?: ZeroConfigSteps,
  ) {
    this.current = config;
    this.start = config;
    this.lane = new ApplyLane((bytes) => hooks.took(bytes));
    const uid = process.geteuid?.() ?? -1;
    this.journal = new ApplyJournal(
      stateDirectories(config.bridge.state_dir, process.env, tmpdir(), uid, existsSync),
    );
    this.manager = this.sessionsFor(config);
  }

  /**
   * The sessions of a configuration, once every apply a killed bridge left half done on its
   * workspaces is finished or undone (SPEC §7.4): before any server sees the files.
   */
  private sessionsFor(config: Config): SessionManager {
    for (const ws of config.workspaces) {
      recoverApplies(this.journal, realRoot(ws.root), config.bridge.max_file_bytes);
    }
    return new SessionManager(config, this.hooks, this.hub);
  }

  get config(): Config {
    return this.current;
  }

  /**
   * An answer serialized `bytes` of what the bridge holds to measure itself (a diagnostics
   * answer over a full store): as much garbage as input that large, so the memory collector
   * counts it as such (collector.ts).
   */
  built(bytes: number): void {
    this.hooks.took(bytes);
  }

  get sessions(): SessionManager {
    return this.manager;
  }

  /** The workspace a call names (or the only one configured), as its Workspace object. */
  workspace(name: string | undefined): Workspace {
    return this.manager.workspace(resolveWorkspace(this.current, name).name);
  }

  /** Resolves once the configuration is complete: at once, or after zero-config discovery. */
  ready(): Promise<void> {
    if (this.zeroConfig === undefined) return Promise.resolve();
    this.discovering ??= this.configure(this.zeroConfig);
    return this.discovering;
  }

  /**
   * The client's roots changed (SPEC §2.1): a bridge whose directory was refused chooses its
   * root again once the current choice is in place; notifications meanwhile make one more.
   */
  rootsChanged(): void {
    const steps = this.zeroConfig;
    const asked = this.discovering;
    if (steps === undefined || asked === undefined || !this.start.discovery?.refused) return;
    if (this.rechoosing) return;
    this.rechoosing = true;
    this.discovering = asked.then(() => {
      this.rechoosing = false;
      return this.configure(steps);
    });
  }

  /**
   * The shell, then its servers. No session exists before the first one resolves (every
   * call waits here), so nothing is lost by replacing the manager; a later one (a root
   * changed) stops the sessions of the root left. The same root again changes nothing; a
   * failed discovery leaves the configuration as it was.
   */
  private async configure(steps: ZeroConfigSteps): Promise<void> {
    try {
      const shell = await steps.shell(this.start);
      const root = (c: Config) => (c.discovery?.refused ? undefined : c.workspaces[0]?.root);
      if (this.current !== this.start && root(shell) === root(this.current)) {
        if (root(shell) === undefined) this.current = shell; // still refused: the roots' report
        return;
      }
      const config = await steps.discover(shell, this.stopDiscovery.signal);
      if (this.stopDiscovery.signal.aborted) return;
      const before = this.manager;
      this.current = config;
      this.manager = this.sessionsFor(config);
      void before.shutdownAll();
    } catch (err) {
      log.error(`discovery failed: ${String(err)}`);
    }
  }

  /** Zero-config in a directory it does not serve (SPEC §2.1): what every tool but session_status answers. */
  refused(): BridgeError | undefined {
    const refused = this.current.discovery?.refused;
    const ws = this.current.workspaces[0];
    return refused && ws ? refusedError(ws.name, refused) : undefined;
  }

  /** SPEC §7.1: the apply class exists only for a gated bridge and an allowlisted client. */
  applyClassFor(client: string | null): boolean {
    const b = this.config.bridge;
    return applyClassRegistered(b.mutation, client, b.mutation_allowlist);
  }

  /** Every session stopped by `deadline` (Date.now()), at most KILL_BOUND_MS later (SPEC §9.2). */
  async shutdown(deadline = Date.now() + this.config.bridge.shutdown_grace_ms): Promise<void> {
    // zero-config discovery still running leaves no version command behind
    this.stopDiscovery.abort();
    if (this.discovering) await bounded(this.discovering, Math.max(0, deadline - Date.now()));
    // an apply ends (written, put back, or stopped before its first swap) as the sessions stop
    await Promise.all([this.lane.close(deadline), this.sessions.shutdownAll(deadline)]);
  }
}

/**
 * One connection's view of a bridge: the shared part, and the gate's handles and
 * transcript and the `since` snapshots of this client alone (SPEC §2.2, §6.1, §7.2).
 */
export class BridgeContext {
  readonly handles = new HandleStore();
  readonly transcript = new GateTranscript();
  /** diagnostics results `since` can compare with (SPEC §6.1) */
  readonly snapshots = new SnapshotStore();

  constructor(readonly shared: SharedBridge) {}

  get config(): Config {
    return this.shared.config;
  }
  get sessions(): SessionManager {
    return this.shared.sessions;
  }
  get journal(): ApplyJournal {
    return this.shared.journal;
  }
  get lane(): ApplyLane {
    return this.shared.lane;
  }
  get startedAt(): number {
    return this.shared.startedAt;
  }
  built(bytes: number): void {
    this.shared.built(bytes);
  }
  workspace(name: string | undefined): Workspace {
    return this.shared.workspace(name);
  }
  ready(): Promise<void> {
    return this.shared.ready();
  }
  rootsChanged(): void {
    this.shared.rootsChanged();
  }
  refused(): BridgeError | undefined {
    return this.shared.refused();
  }
  applyClassFor(client: string | null): boolean {
    return this.shared.applyClassFor(client);
  }

  /** Record the gate's refusal of an apply tool this client does not have (SPEC §7.1, §7.2). */
  recordUnregisteredApply(tool: GateTool, client: string | null): void {
    judgeApply(this.config.bridge, this.transcript, {
      tool,
      client,
      workspace: null,
      server: null,
      handle: "not_applicable",
      version: "unchecked",
      files: 0,
    });
  }
}
