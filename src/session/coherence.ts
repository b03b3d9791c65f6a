/**
 * The editor's part (SPEC §5): the server's view of the workspace follows the
 * disk. Before a call is sent to a session, `followDisk` drains the workspace
 * watcher and checks every open document (one lstat each, none while the watcher
 * vouches for it; read and hash only when its identity moved or the watcher named
 * it), then tells the server, in
 * this order: documents gone (`didClose`), the file events its watchers asked
 * for (`workspace/didChangeWatchedFiles`), documents whose content changed
 * (`didChange` version + 1, `didSave` where the server wants saves). Every
 * delivery moves the session's workspace generation; a document synced at an
 * older generation is sent again before it is asked about (SPEC §5.3).
 */
import { basename, dirname, join } from "node:path";
import type { Registration } from "vscode-languageserver-protocol";
import { languageOfFile } from "../config/server-files.ts";
import type { BridgeConfig, ServerConfig, WorkspaceConfig } from "../config/types.ts";
import { log } from "../log.ts";
import { readWorkspaceText, type WorkspaceText } from "../workspace/confined.ts";
import {
  type CompiledWatcher,
  coalesce,
  compileWatchers,
  directoryOfInterest,
  FILE_CHANGE_TYPE,
  type FileChange,
  matchingEvents,
} from "../workspace/file-events.ts";
import { atOrBelow, type ResolvedFile, realRoot, workspaceRootReal } from "../workspace/files.ts";
import { currentIdentity, sameIdentity, WatchVouchers } from "../workspace/identity.ts";
import { pathToUri } from "../workspace/uri.ts";
import { type Subscription, workspaceWatcher } from "../workspace/watch.ts";
import type { WatchStatus } from "../workspace/watch-status.ts";
import type { DiagnosticStore } from "./diagnostics.ts";
import type { DiskContent, DocumentStore, OpenDocument, SyncStamp } from "./documents.ts";

/** What the follower needs of its session. */
export interface CoherenceHost {
  readonly key: string;
  readonly workspace: WorkspaceConfig;
  readonly server: ServerConfig;
  readonly bridge: BridgeConfig;
  readonly documents: DocumentStore;
  readonly diagnostics: DiagnosticStore;
  readonly registrations: Map<string, Registration>;
  notifyServer(method: string, params: unknown): void;
  notifySaved(doc: OpenDocument): void;
  languageIdFor(abs: string): string;
  /** resolves once the server has handled every notification sent before it */
  barrier(signal?: AbortSignal): Promise<void>;
}

/**
 * How the document a call is about is brought up to the workspace: "reopen" — closed and
 * opened afresh when the workspace changed around it; "fresh" — also when its own text
 * changed since it was opened (a server that publishes only when its answer changed,
 * SPEC §6); "none" — left as it is (a pulled server answers from its own state).
 */
export type Refresh = "reopen" | "fresh" | "none";

export interface CoherenceStatus {
  generation: number;
  /** the server registered file watchers (workspace/didChangeWatchedFiles) */
  watchers: string[];
  /** registered watchers that lie outside the workspace root: never watched, never delivered */
  watchers_outside_root: string[];
  documents_changed: number;
  documents_closed: number;
  file_events_sent: number;
  documents_refreshed: number;
  /** files opened because the server's watchers reported them (open_changed_files) */
  files_opened: number;
  watch: WatchStatus | null;
}

function isHidden(root: string, dir: string): boolean {
  if (dir === root) return false;
  return dir
    .slice(root.length + 1)
    .split("/")
    .some((part) => part.startsWith("."));
}

export class WorkspaceFollower {
  /** moves whenever a change reached the server (SPEC §5.3) */
  generation = 0;
  private pending: FileChange[] = [];
  private watchers: CompiledWatcher[] = [];
  private subscription: Subscription | null = null;
  private readonly root: string;
  /** the bridge's own log file, when it lies in the workspace: its writes are no change */
  private readonly logFile: string | null;
  private closed = false;
  private readonly counts = { changed: 0, closed: 0, events: 0, refreshed: 0, opened: 0 };
  /** open documents the watcher reports every change of: no lstat per call (SPEC §5.1) */
  private readonly vouchers = new WatchVouchers(() => this.watcher);

  constructor(private readonly host: CoherenceHost) {
    this.root = workspaceRootReal(host.workspace.root);
    const log = host.bridge.log.file;
    this.logFile = log === null ? null : join(realRoot(dirname(log)), basename(log));
  }

  private ownLog(abs: string): boolean {
    return this.logFile !== null && (abs === this.logFile || abs.startsWith(`${this.logFile}.`));
  }

  private get watcher() {
    return workspaceWatcher(this.root, this.host.bridge.max_watches);
  }

  /**
   * Servers that registered watchers get the events they asked for; the others are not
   * sent any, but a change anywhere in the workspace (outside hidden directories) still
   * moves the generation, so the document a call is about is sent again first (clangd
   * re-reads its headers then).
   */
  private interest = (dir: string): boolean =>
    this.watchers.length > 0 ? directoryOfInterest(this.watchers, dir) : !isHidden(this.root, dir);

  watching(): boolean {
    return this.watchers.length > 0;
  }

  /** The server's file-watcher registrations changed (client/registerCapability). */
  registrationsChanged(): void {
    this.watchers = compileWatchers(this.host.registrations.values());
    if (this.subscription) this.subscription.refresh();
    else this.subscribe();
  }

  private subscribe(): void {
    if (this.closed || this.subscription) return;
    this.subscription = this.watcher.subscribe(this.interest, (changes) => {
      // coalesced as it grows: an idle session holds one change per file, not a history
      this.pending = coalesce([...this.pending, ...changes]);
    });
  }

  /** The stamp for content that changes the server's view now. */
  private nextStamp(): SyncStamp {
    this.generation += 1;
    return { seq: this.host.diagnostics.seq, generation: this.generation };
  }

  /** The stamp for content equal to what the server has or would read itself. */
  currentStamp(): SyncStamp {
    return { seq: this.host.diagnostics.seq, generation: this.generation };
  }

  /**
   * Bring the server's view up to the disk (SPEC §5.1, §5.2). Synchronous; returns the
   * documents whose new content was sent (a server that publishes per version is then
   * waited for, SPEC §5.3). `since`: when the call began; a drain after it is enough.
   */
  followDisk(since?: number): OpenDocument[] {
    this.subscribe();
    this.watcher.poll(since);
    const changes = this.pending.splice(0).filter((c) => !this.ownLog(c.abs));
    const named = new Set<string>();
    for (const c of changes) named.add(c.abs);
    const max = this.host.bridge.max_file_bytes;
    const gone: OpenDocument[] = [];
    const changed: { doc: OpenDocument; content: WorkspaceText }[] = [];
    for (const doc of this.host.documents.all()) {
      if (!named.has(doc.abs) && (this.vouchers.vouches(doc) || this.vouchers.unchanged(doc))) {
        continue;
      }
      let content: WorkspaceText;
      try {
        content = readWorkspaceText(this.root, doc.abs, max);
      } catch {
        gone.push(doc); // deleted, replaced by something else, too large, not UTF-8
        continue;
      }
      if (content.abs !== doc.abs) gone.push(doc);
      else if (content.sha256 !== doc.sha256) changed.push({ doc, content });
      else doc.identity = content.identity;
    }
    const events = matchingEvents(this.watchers, changes, this.root);
    if (gone.length === 0 && changed.length === 0 && events.length === 0) {
      // a server without watchers: a change to any file it did not get from the bridge
      // may matter to what it reads itself (open documents were compared above)
      const open = new Set(this.host.documents.all().map((d) => d.abs));
      if (this.watchers.length === 0 && changes.some((c) => !open.has(c.abs))) {
        this.generation += 1;
      }
      this.forgetDeleted(changes);
      return [];
    }
    const stamp = this.nextStamp();
    for (const doc of gone) {
      this.host.documents.close(doc.uri);
      this.counts.closed += 1;
    }
    if (events.length > 0) {
      this.host.notifyServer("workspace/didChangeWatchedFiles", {
        changes: events.map((e) => ({ uri: pathToUri(e.abs), type: FILE_CHANGE_TYPE[e.kind] })),
      });
      this.counts.events += events.length;
    }
    const sent: OpenDocument[] = [];
    for (const { doc, content } of changed) {
      this.host.documents.replace(doc, content, stamp);
      // changed on disk = saved: servers that check on save (cargo check) check again
      this.host.notifySaved(doc);
      this.counts.changed += 1;
      sent.push(doc);
    }
    sent.push(...this.openChanged(events, stamp));
    // a document closed for following the disk has no diagnostics either (SPEC §5.1)
    for (const doc of gone) this.host.diagnostics.forget(doc.uri);
    this.forgetDeleted(changes);
    log.debug(
      `[${this.host.key}] followed the disk: ${gone.length} closed, ${events.length} events, ${changed.length} changed`,
    );
    return sent;
  }

  /**
   * `open_changed_files`: created or changed files of the server's own languages that its
   * watchers asked about are opened too, so their content reaches the server in order
   * with the request (servers that read watched files on a timer or another thread).
   * At most max_open_documents per look; beyond that the events alone carry them.
   */
  private openChanged(events: FileChange[], stamp: SyncStamp): OpenDocument[] {
    if (!this.host.server.open_changed_files) return [];
    const { documents } = this.host;
    const wanted = events.filter(
      (e) =>
        e.kind !== "deleted" &&
        languageOfFile(this.host.server, e.abs) !== undefined &&
        documents.get(pathToUri(e.abs)) === undefined,
    );
    if (wanted.length > this.host.bridge.max_open_documents) return [];
    const opened: OpenDocument[] = [];
    for (const e of wanted) {
      let content: WorkspaceText;
      try {
        content = readWorkspaceText(this.root, e.abs, this.host.bridge.max_file_bytes);
      } catch {
        continue; // gone again, too large, not UTF-8: the event told the server
      }
      const uri = pathToUri(content.abs);
      const languageId = this.host.languageIdFor(content.abs);
      opened.push(documents.sync(uri, languageId, content, stamp).doc);
      this.counts.opened += 1;
    }
    return opened;
  }

  /** A file that no longer exists has no diagnostics (a fresh server would report none). */
  private forgetDeleted(changes: FileChange[]): void {
    for (const c of changes) {
      if (c.kind === "deleted" && currentIdentity(c.abs) === null) {
        this.host.diagnostics.forget(pathToUri(c.abs));
      }
    }
  }

  /**
   * The document a call is about, synced to the file as it is now: `target` is content read
   * before the session was ready (read again when the disk moved since), or only the
   * resolved path of a file the session held open then — its open document stands for it
   * while the path's identity is the one its text was read with (the look followDisk takes,
   * SPEC §5.1), and the file is read otherwise. With "reopen", a document whose text is
   * unchanged but that was synced at an older generation is closed and opened afresh
   * first, so the server builds it again against the workspace as it is now.
   */
  async syncTarget(
    target: WorkspaceText | ResolvedFile,
    refresh: Refresh,
    signal?: AbortSignal,
  ): Promise<OpenDocument> {
    const { documents } = this.host;
    const current = this.contentNow(target);
    const uri = pathToUri(current.abs);
    const open = documents.get(uri);
    const stale =
      open !== undefined &&
      (open.generation < this.generation ||
        // "fresh": the answer must come from an opening, never from a didChange
        (refresh === "fresh" && (!open.opened || open.sha256 !== current.sha256)));
    if (refresh !== "none" && open && stale) {
      this.counts.refreshed += 1;
      documents.close(uri);
      // whatever the server publishes for the closing arrives before the barrier's answer
      await this.host.barrier(signal);
    } else if (refresh === "fresh" && !open && documents.openedBefore(uri)) {
      // closed long ago (LRU), the server may still hold a result from that opening that
      // a late event recreated after the close (tls does): one open and close clears it
      this.counts.refreshed += 1;
      this.syncContent(current);
      documents.close(uri);
      await this.host.barrier(signal);
    }
    return this.syncContent(current).doc;
  }

  private contentNow(target: WorkspaceText | ResolvedFile): DiskContent {
    const open = this.host.documents.byPath(target.abs);
    // followDisk drained the watcher for this call and looked at every document an event
    // named; one named since (another call drained meanwhile) waits in `pending`
    if (
      open !== undefined &&
      !("text" in target) &&
      !this.pending.some((c) => c.abs === open.abs) &&
      this.vouchers.vouches(open)
    ) {
      return { abs: open.abs, text: open.text, sha256: open.sha256, identity: open.identity };
    }
    const now = currentIdentity(target.abs);
    if ("text" in target && sameIdentity(now, target.identity)) return target;
    if (open !== undefined && sameIdentity(now, open.identity)) {
      return { abs: open.abs, text: open.text, sha256: open.sha256, identity: open.identity };
    }
    return readWorkspaceText(this.root, target.abs, this.host.bridge.max_file_bytes);
  }

  /**
   * Sync content just read from disk: didOpen, or didChange (+ didSave) when it differs
   * from what the server holds, which moves the generation.
   */
  syncContent(content: DiskContent): { doc: OpenDocument; sent: "open" | "change" | "none" } {
    // from the first document on, changes elsewhere are noticed
    this.subscribe();
    const uri = pathToUri(content.abs);
    const open = this.host.documents.get(uri);
    const stamp = open && open.sha256 !== content.sha256 ? this.nextStamp() : this.currentStamp();
    const languageId = open?.languageId ?? this.host.languageIdFor(content.abs);
    const result = this.host.documents.sync(uri, languageId, content, stamp);
    if (result.sent === "change") {
      this.host.notifySaved(result.doc);
      this.counts.changed += 1;
    }
    return result;
  }

  status(): CoherenceStatus {
    return {
      generation: this.generation,
      watchers: this.watchers.map((w) => w.pattern),
      watchers_outside_root: this.watchers
        .filter(
          (w) =>
            w.scope !== null && !atOrBelow(this.root, w.scope) && !atOrBelow(w.scope, this.root),
        )
        .map((w) => w.pattern),
      documents_changed: this.counts.changed,
      documents_closed: this.counts.closed,
      file_events_sent: this.counts.events,
      documents_refreshed: this.counts.refreshed,
      files_opened: this.counts.opened,
      watch: this.subscription ? this.watcher.status() : null,
    };
  }

  close(): void {
    this.closed = true;
    this.subscription?.close();
    this.subscription = null;
    this.pending = [];
  }
}
