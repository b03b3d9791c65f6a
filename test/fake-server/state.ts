/**
 * What the fake server has seen and done, for tests to assert on: documents
 * (didOpen/didChange/didClose), answers to its own requests, cancelled ids and
 * one ordered event log. Returned by the `fake/state` request and, with
 * `state_file`, rewritten atomically to that file after every change (a test
 * talks to the bridge, not to the fake, so the file is how it looks inside).
 */
import { renameSync, writeFileSync } from "node:fs";

export interface TrackedDocument {
  languageId: string;
  version: number | null;
  text: string;
  open: boolean;
  opens: number;
  changes: number;
  closes: number;
}

/** One thing that happened, in order: a message received (`in`) or sent (`out`). */
export interface FakeEvent {
  seq: number;
  dir: "in" | "out";
  method: string;
  id?: number | string;
  /** short facts: a document version, a progress kind, a status, a log text */
  detail?: unknown;
}

export interface ReceivedRequest {
  seq: number;
  id: number | string;
  method: string;
  params: unknown;
}

export interface ServerRequestAnswer {
  method: string;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface FakeStateSnapshot {
  documents: Record<string, TrackedDocument>;
  configurationAnswers: unknown[];
  applyEditAnswers: unknown[];
  serverRequestAnswers: ServerRequestAnswer[];
  progressCreateAnswers: ServerRequestAnswer[];
  cancelled: (number | string)[];
  requests: ReceivedRequest[];
  events: FakeEvent[];
}

/** Bounds so a long-running fake does not grow without limit. */
const MAX_EVENTS = 5000;
const MAX_REQUESTS = 2000;

/** The state of a fake that has seen nothing yet. */
export function emptyFakeState(): FakeStateSnapshot {
  return {
    documents: {},
    configurationAnswers: [],
    applyEditAnswers: [],
    serverRequestAnswers: [],
    progressCreateAnswers: [],
    cancelled: [],
    requests: [],
    events: [],
  };
}

export class FakeState {
  private seq = 0;
  readonly data: FakeStateSnapshot = emptyFakeState();

  constructor(private readonly file: string | undefined) {}

  event(dir: "in" | "out", method: string, extra: { id?: number | string; detail?: unknown } = {}) {
    const e: FakeEvent = { seq: ++this.seq, dir, method };
    if (extra.id !== undefined) e.id = extra.id;
    if (extra.detail !== undefined) e.detail = extra.detail;
    this.data.events.push(e);
    if (this.data.events.length > MAX_EVENTS) this.data.events.shift();
    this.persist();
    return e.seq;
  }

  request(id: number | string, method: string, params: unknown): void {
    const seq = this.event("in", method, { id });
    this.data.requests.push({ seq, id, method, params });
    if (this.data.requests.length > MAX_REQUESTS) this.data.requests.shift();
    this.persist();
  }

  document(uri: string): TrackedDocument | undefined {
    return this.data.documents[uri];
  }

  opened(uri: string, languageId: string, version: number | null, text: string): void {
    const prev = this.data.documents[uri];
    this.data.documents[uri] = {
      languageId,
      version,
      text,
      open: true,
      opens: (prev?.opens ?? 0) + 1,
      changes: prev?.changes ?? 0,
      closes: prev?.closes ?? 0,
    };
    this.persist();
  }

  changed(uri: string, version: number | null, text: string | undefined): void {
    const doc = this.data.documents[uri];
    if (!doc) return;
    doc.version = version;
    if (text !== undefined) doc.text = text;
    doc.changes += 1;
    this.persist();
  }

  closed(uri: string): void {
    const doc = this.data.documents[uri];
    if (!doc) return;
    doc.open = false;
    doc.closes += 1;
    this.persist();
  }

  cancelled(id: number | string): void {
    this.data.cancelled.push(id);
    this.persist();
  }

  answer(list: "configurationAnswers" | "applyEditAnswers", value: unknown): void;
  answer(list: "serverRequestAnswers" | "progressCreateAnswers", value: ServerRequestAnswer): void;
  answer(list: keyof FakeStateSnapshot, value: unknown): void {
    (this.data[list] as unknown[]).push(value);
    this.persist();
  }

  snapshot(): FakeStateSnapshot {
    return structuredClone(this.data);
  }

  private persist(): void {
    if (this.file === undefined) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
  }
}
