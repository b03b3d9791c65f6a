/**
 * The server's `client/registerCapability` registrations, bounded by REGISTRATION_LIMITS
 * (SPEC §8): a request that would pass a bound is refused whole and counted. Each is
 * measured once, when it arrives, so a flood costs linear time.
 */
import type { Registration } from "vscode-languageserver-protocol";

export const REGISTRATION_LIMITS = {
  count: 1000,
  watchers: 4096,
  chars: 4 * 1024 * 1024,
} as const;

interface Size {
  watchers: number;
  bytes: number;
}

function watchersOf(r: Registration): number {
  if (r.method !== "workspace/didChangeWatchedFiles") return 0;
  const watchers = (r.registerOptions as { watchers?: unknown } | undefined)?.watchers;
  return Array.isArray(watchers) ? watchers.length : 0;
}

function sizeOf(r: Registration): Size {
  let bytes = r.id.length + (typeof r.method === "string" ? r.method.length : 0);
  try {
    bytes += JSON.stringify(r.registerOptions ?? null)?.length ?? 0;
  } catch {
    bytes = Number.POSITIVE_INFINITY; // cannot be measured (a cycle cannot come from JSON)
  }
  return { watchers: watchersOf(r), bytes };
}

export class RegistrationBook {
  private readonly sizes = new Map<string, Size>();
  private watchers = 0;
  private bytes = 0;
  /** registration requests refused at a bound */
  refused = 0;

  /** `registrations` is the session's map, which this book keeps within the bounds. */
  constructor(private readonly registrations: Map<string, Registration>) {}

  /** Keep every registration of one request, or none: undefined, or why they were refused. */
  add(list: readonly Registration[]): string | undefined {
    const incoming = new Map<string, Size>();
    for (const r of list) incoming.set(r.id, sizeOf(r));
    let count = this.registrations.size;
    let watchers = this.watchers;
    let bytes = this.bytes;
    for (const [id, size] of incoming) {
      const old = this.sizes.get(id);
      if (old === undefined) count += 1;
      watchers += size.watchers - (old?.watchers ?? 0);
      bytes += size.bytes - (old?.bytes ?? 0);
    }
    const L = REGISTRATION_LIMITS;
    const over =
      count > L.count
        ? `${L.count} registrations`
        : watchers > L.watchers
          ? `${L.watchers} file watchers`
          : bytes > L.chars
            ? `${L.chars} characters of registration options`
            : undefined;
    if (over !== undefined) {
      this.refused += 1;
      return `theodolite keeps at most ${over} per session (SPEC §8)`;
    }
    for (const r of list) {
      this.registrations.set(r.id, r);
      this.sizes.set(r.id, incoming.get(r.id) as Size);
    }
    this.watchers = watchers;
    this.bytes = bytes;
    return undefined;
  }

  remove(id: string): void {
    const size = this.sizes.get(id);
    if (size === undefined) return;
    this.sizes.delete(id);
    this.registrations.delete(id);
    this.watchers -= size.watchers;
    this.bytes -= size.bytes;
  }
}

/** SPEC §8: watcher patterns session_status names, and the characters of each. */
const SHOWN = { watchers: 20, chars: 256 } as const;

function shown(patterns: readonly string[]): string[] {
  return patterns
    .slice(0, SHOWN.watchers)
    .map((p) => (p.length > SHOWN.chars ? `${p.slice(0, SHOWN.chars)}…` : p));
}

/** session_status's coherence entry with the watcher patterns bounded (SHOWN), and counts. */
export function boundedWatchers<
  T extends { watchers: readonly string[]; watchers_outside_root: readonly string[] },
>(status: T): T & { watchers_total: number; watchers_outside_root_total: number } {
  return {
    ...status,
    watchers: shown(status.watchers),
    watchers_total: status.watchers.length,
    watchers_outside_root: shown(status.watchers_outside_root),
    watchers_outside_root_total: status.watchers_outside_root.length,
  };
}
