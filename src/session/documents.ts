/**
 * A session's open documents and how the server's view follows the disk (SPEC §5), the
 * editor's part; document-store.ts keeps the documents. `sync()` tells the server what moved
 * (closes, watched-file events, changes, saves: in that order), `target()` is the call's
 * document as the file is now, `write()` makes content just read the server's copy.
 */
import { dirname } from "node:path";
import { languageOfFile } from "../config/server-files.ts";
import { log } from "../log.ts";
import type { WorkspaceText } from "../workspace/confined.ts";
import { FILE_CHANGE_TYPE, type FileChange } from "../workspace/file-events.ts";
import type { ResolvedFile } from "../workspace/files.ts";
import { currentIdentity, sameIdentity } from "../workspace/identity.ts";
import { pathToUri } from "../workspace/uri.ts";
import { inDependencies } from "../workspace/watch-scope.ts";
import type { WatchStatus } from "../workspace/watch-status.ts";
import type { SessionContext } from "./context.ts";
import { DiskChanges } from "./disk-changes.ts";
import {
  type DiskContent,
  DocumentStore,
  type OpenDocument,
  type ServerLink,
  type SyncResult,
  type SyncStamp,
  serverSink,
} from "./document-store.ts";
import { Republisher } from "./republish.ts";
import { Saves } from "./saves.ts";
import type { Refresh } from "./settle/rule.ts";

export type { DiskContent, OpenDocument, ServerLink } from "./document-store.ts";

/** What session_status says of the documents (SPEC §10), keys as shown there. */
export interface CoherenceStatus {
  generation: number;
  /** registered file watchers, and those outside the root (never watched) */
  watchers: string[];
  watchers_outside_root: string[];
  documents_changed: number;
  documents_closed: number;
  file_events_sent: number;
  documents_refreshed: number;
  /** files opened because the server's watchers reported them (open_changed_files) */
  files_opened: number;
  /** configuration reloads for `reload_on` */
  configuration_reloads: number;
  watch: WatchStatus | null;
  /** dependencies outside the root its configuration names, not watched (SPEC §5.3) */
  outside_unwatched: string[];
}

/** What a `sync` sent: documents changed, and files opened because they changed. */
export interface Synced {
  sent: OpenDocument[];
  opened: OpenDocument[];
}

function contentOf(doc: OpenDocument): DiskContent {
  return { abs: doc.abs, text: doc.text, sha256: doc.sha256, identity: doc.identity };
}

export class Documents {
  /** moves whenever a change reached the server (SPEC §5.3) */
  generation = 0;
  /** the didSaves of this life (saves.ts) */
  readonly saves: Saves;
  /** what changed on disk that the server cares about (disk-changes.ts) */
  readonly disk: DiskChanges;
  /** republish rounds after a check run (republish.ts) */
  readonly republish: Republisher;
  private readonly store: DocumentStore;
  /** the paths of the open documents (document-store.ts), read-only */
  readonly openPaths: ReadonlyMap<string, string>;
  private counts = { changed: 0, closed: 0, events: 0, refreshed: 0, opened: 0, reloads: 0 };

  constructor(
    private readonly ctx: SessionContext,
    private readonly server: ServerLink,
  ) {
    const { lines, answerLines } = ctx;
    const max = ctx.bridge.max_open_documents;
    this.store = new DocumentStore(max, serverSink(server), lines, answerLines);
    this.openPaths = this.store.paths;
    this.saves = new Saves(ctx, server);
    this.republish = new Republisher(ctx, {
      notify: (method, params) => server.notify(method, params),
      reopen: (uri) => this.reopen(uri),
    });
    this.disk = new DiskChanges(ctx, () => this.store.all().map((d) => dirname(d.abs)));
  }

  /** A new server life: nothing is open, nothing is watched yet. */
  reset(): void {
    this.clear();
    this.disk.reset();
    this.generation = 0;
    this.saves.reset();
    this.republish.reset();
    this.counts = { changed: 0, closed: 0, events: 0, refreshed: 0, opened: 0, reloads: 0 };
  }

  /** The server is gone: forget everything (nothing to close), stop watching. */
  clear(): void {
    this.store.clear();
    this.disk.close();
  }

  get(uri: string): OpenDocument | undefined {
    return this.store.get(uri);
  }
  byPath(abs: string): OpenDocument | undefined {
    return this.store.byPath(abs);
  }
  count(): number {
    return this.store.count();
  }
  /** The URIs of the open documents. */
  uris(): string[] {
    return this.store.all().map((d) => d.uri);
  }

  /** Close one document (the next call on it opens it afresh). */
  close(uri: string): void {
    this.store.close(uri);
  }

  /**
   * Close an open document and open it again with the same text (and the next version), so
   * the server forgets what it derived from the opening; false: not open.
   */
  reopen(uri: string): boolean {
    const doc = this.store.close(uri);
    if (doc === undefined) return false;
    this.store.sync(uri, doc.languageId, contentOf(doc), this.currentStamp());
    return true;
  }

  /** The stamp for content that changes the server's view now. */
  private nextStamp(): SyncStamp {
    this.generation += 1;
    return this.currentStamp();
  }

  private currentStamp(): SyncStamp {
    return { seq: this.ctx.diagnostics.seq, generation: this.generation };
  }

  /** Bring the server's view up to the disk (SPEC §5.1, §5.2); catch-up.ts awaits it. */
  sync(): Synced {
    const { changes, events } = this.disk.take();
    const reload = this.disk.takeReason("reload");
    const named = new Set(changes.map((c) => c.abs));
    const gone: OpenDocument[] = [];
    const changed: { doc: OpenDocument; content: WorkspaceText }[] = [];
    for (const doc of this.store.all()) {
      if (!named.has(doc.abs) && sameIdentity(doc.identity, currentIdentity(doc.abs))) continue;
      let content: WorkspaceText;
      try {
        content = this.ctx.workspace.read(doc.abs);
      } catch {
        gone.push(doc); // deleted, replaced by something else, too large, not UTF-8
        continue;
      }
      if (content.abs !== doc.abs) gone.push(doc);
      else if (content.sha256 !== doc.sha256) changed.push({ doc, content });
      else doc.identity = content.identity;
    }
    // a server without watchers: a change to any file it did not get from the bridge may
    // matter to what it reads itself (open documents were compared above)
    const open = new Set(this.store.all().map((d) => d.abs));
    const unseen = !this.disk.watching() && changes.some((c) => !open.has(c.abs));
    // a server that checks on save checks again only when told of a save (SPEC §5.3)
    if ((events.length > 0 || unseen) && changed.length === 0) this.saves.owe();
    // a server without watchers is told of nothing else: every changed file of its languages
    const toOpen = this.toOpen(this.disk.watching() ? events : changes);
    const nothing = gone.length === 0 && changed.length === 0 && events.length === 0;
    if (nothing && toOpen.length === 0 && !reload) {
      this.disk.judge(changes, events, open, new Set());
      if (unseen) this.generation += 1;
      this.forgetDeleted(changes);
      this.saves.pay(this.store.all().at(-1));
      return { sent: [], opened: [] };
    }
    const stamp = this.nextStamp();
    for (const doc of gone) {
      this.store.close(doc.uri);
      this.counts.closed += 1;
    }
    if (events.length > 0) {
      this.server.notify("workspace/didChangeWatchedFiles", {
        changes: events.map((e) => ({ uri: pathToUri(e.abs), type: FILE_CHANGE_TYPE[e.kind] })),
      });
      this.counts.events += events.length;
    }
    if (reload !== undefined) {
      // `reload_on`: the server reloads its configuration, and with it what it read (SPEC §5.2)
      this.server.notify("workspace/didChangeConfiguration", {
        settings: this.ctx.server.settings,
      });
      this.counts.reloads += 1;
      log.debug(`[${this.ctx.key}] configuration reload: ${reload} (reload_on)`);
    }
    const sent: OpenDocument[] = [];
    for (const { doc, content } of changed) {
      this.store.replace(doc, content, stamp);
      // changed on disk = saved: servers that check on save (cargo check) check again
      this.saves.saved(doc);
      this.counts.changed += 1;
      sent.push(doc);
    }
    // documents changed together were sent one after another: a publish for one of them may
    // predate the others, so each is built again (target's "reopen") before it is diagnosed
    if (changed.length > 1) this.generation += 1;
    const opened = this.openChanged(toOpen, stamp);
    this.disk.judge(changes, events, open, new Set(opened.map((d) => d.abs)));
    this.saves.pay(this.store.all().at(-1));
    // a document closed for following the disk has no diagnostics either (SPEC §5.1)
    for (const doc of gone) this.ctx.diagnostics.forget(doc.uri);
    this.forgetDeleted(changes);
    log.debug(
      `[${this.ctx.key}] followed the disk: ${gone.length} closed, ${events.length} events, ${changed.length} changed`,
    );
    return { sent, opened };
  }

  /**
   * `open_changed_files` (SPEC §5.2): changed files of the server's languages are opened too,
   * so their content reaches it in order with the request; past max_open_documents, the
   * events alone carry them.
   */
  private toOpen(changes: FileChange[]): FileChange[] {
    const { server, bridge, workspace } = this.ctx;
    if (!server.open_changed_files) return [];
    const wanted = changes.filter(
      (e) =>
        e.kind !== "deleted" &&
        languageOfFile(server, e.abs) !== undefined &&
        // a dependency's file is the server's to read, never a document of the workspace
        !inDependencies(workspace.rootReal, e.abs) &&
        this.store.get(pathToUri(e.abs)) === undefined,
    );
    return wanted.length > bridge.max_open_documents ? [] : wanted;
  }

  private openChanged(wanted: FileChange[], stamp: SyncStamp): OpenDocument[] {
    const { server, workspace } = this.ctx;
    const opened: OpenDocument[] = [];
    for (const e of wanted) {
      const content = workspace.tryRead(e.abs);
      if (content === undefined) continue; // gone again, too large, not UTF-8: the event told it
      const languageId = this.ctx.hooks.languageIdFor(server, content.abs);
      opened.push(this.store.sync(pathToUri(content.abs), languageId, content, stamp).doc);
      this.counts.opened += 1;
    }
    return opened;
  }

  /** A file that no longer exists has no diagnostics (a fresh server would report none). */
  private forgetDeleted(changes: FileChange[]): void {
    for (const c of changes) {
      if (c.kind === "deleted" && currentIdentity(c.abs) === null) {
        this.ctx.diagnostics.forget(pathToUri(c.abs));
      }
    }
  }

  /**
   * The call's document as the file is now (`target`: content read earlier, or the path of
   * an open document). "reopen" closes and opens afresh a document synced at an older
   * generation, so the server builds it against the workspace as it is now.
   */
  async target(
    target: WorkspaceText | ResolvedFile,
    refresh: Refresh,
    signal?: AbortSignal,
  ): Promise<OpenDocument> {
    const current = this.contentNow(target);
    const uri = pathToUri(current.abs);
    const open = this.store.get(uri);
    const stale =
      open !== undefined &&
      (open.generation < this.generation ||
        // "fresh": the answer must come from an opening, never from a didChange
        (refresh === "fresh" && (!open.opened || open.sha256 !== current.sha256)));
    if (refresh !== "none" && open && stale) {
      this.counts.refreshed += 1;
      this.store.close(uri);
      // whatever the server publishes for the closing arrives before the barrier's answer
      await this.server.barrier(signal);
    } else if (refresh === "fresh" && !open && this.store.openedBefore(uri)) {
      // closed long ago (LRU), the server may still hold a result from that opening that a
      // late event recreated after the close (tls does): one open and close clears it
      this.counts.refreshed += 1;
      this.write(current);
      this.store.close(uri);
      await this.server.barrier(signal);
    }
    return this.write(current).doc;
  }

  private contentNow(target: WorkspaceText | ResolvedFile): DiskContent {
    const now = currentIdentity(target.abs);
    if ("text" in target && sameIdentity(now, target.identity)) return target;
    const open = this.store.byPath(target.abs);
    if (open !== undefined && sameIdentity(now, open.identity)) return contentOf(open);
    return this.ctx.workspace.read(target.abs);
  }

  /** Content just read becomes the server's copy: didOpen, or didChange (+ didSave). */
  write(content: DiskContent): SyncResult {
    // from the first document on, changes elsewhere are noticed
    this.disk.start();
    const uri = pathToUri(content.abs);
    const open = this.store.get(uri);
    const stamp = open && open.sha256 !== content.sha256 ? this.nextStamp() : this.currentStamp();
    const result = this.store.sync(uri, this.languageOf(content.abs), content, stamp);
    if (result.sent === "change") {
      this.saves.saved(result.doc);
      this.counts.changed += 1;
    }
    if (result.sent === "open") {
      this.saves.pay(this.store.all().at(-1));
      this.disk.opened();
    }
    return result;
  }

  /**
   * A text that is not the disk's becomes the server's copy, or the disk's comes back after
   * it (a preview, SPEC §6.2): didOpen or didChange, never a save — the disk did not change.
   */
  propose(content: DiskContent): OpenDocument {
    const uri = pathToUri(content.abs);
    return this.store.sync(uri, this.languageOf(content.abs), content, this.nextStamp()).doc;
  }

  private languageOf(abs: string): string {
    const open = this.store.get(pathToUri(abs));
    return open?.languageId ?? this.ctx.hooks.languageIdFor(this.ctx.server, abs);
  }

  status(): CoherenceStatus {
    const patterns = this.disk.patterns();
    return {
      generation: this.generation,
      watchers: patterns.watchers,
      watchers_outside_root: patterns.outside,
      documents_changed: this.counts.changed,
      documents_closed: this.counts.closed,
      file_events_sent: this.counts.events,
      documents_refreshed: this.counts.refreshed,
      files_opened: this.counts.opened,
      configuration_reloads: this.counts.reloads,
      watch: this.disk.watchStatus(),
      outside_unwatched: this.disk.outsideUnwatched(),
    };
  }
}
