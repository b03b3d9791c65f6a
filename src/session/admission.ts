/**
 * Who may start a server tree (SPEC §9.1), pure over the sessions as the manager sees them:
 * a session holds a slot from admission until its tree is gone. With every slot taken an
 * idle one is evicted (stopping first, then the lowest standing, then least recently used);
 * when none may go, SessionLimit.
 */
import { TIER_RANK, type Tier } from "../config/standing.ts";

export interface SlotView<S> {
  session: S;
  /** holds a slot: admitted and not yet started, or its tree exists (starting … stopping) */
  occupies: boolean;
  /** admitted, about to start: never a victim */
  reserved: boolean;
  /** no call is using it */
  idle: boolean;
  stopping: boolean;
  lastUsed: number;
  tier: Tier;
  /** its rank among every configured session: tier, then its workspace's list (lower first) */
  rank: number;
}

export type AdmissionDecision<S> =
  | { kind: "admit" }
  | { kind: "evict"; victim: S }
  /** `held`: idle sessions its standing may not evict (a main server, one ranked before a warm-up) */
  | { kind: "limit"; busy: S[]; held: S[] };

/** How a start asks: a call that needs the server, or a warm-up of `start: true`. */
export type AdmissionMode = "call" | "warmup";

/** Whether `incoming` may evict `victim` (both as seen now). */
export function mayEvict<S>(
  incoming: SlotView<S> | undefined,
  victim: SlotView<S>,
  mode: AdmissionMode,
): boolean {
  // a stop under way frees its slot whoever waits for it
  if (incoming === undefined || victim.stopping) return true;
  if (incoming.tier === "data" && victim.tier === "main") return false;
  return mode === "call" || victim.rank > incoming.rank;
}

/**
 * Admit `incoming`, evict one victim first, or refuse. `tried` are victims already evicted
 * for this admission: each is chosen at most once, so a decision loop always ends.
 */
export function decideAdmission<S>(
  incoming: S,
  views: readonly SlotView<S>[],
  maxSessions: number,
  tried: ReadonlySet<S> = new Set(),
  mode: AdmissionMode = "call",
): AdmissionDecision<S> {
  const held = views.filter((v) => v.session !== incoming && v.occupies);
  if (held.length < maxSessions) return { kind: "admit" };
  const self = views.find((v) => v.session === incoming);
  const evictable = held.filter((v) => v.idle && !v.reserved && !tried.has(v.session));
  const victim = evictable
    .filter((v) => mayEvict(self, v, mode))
    .sort(
      (a, b) =>
        Number(b.stopping) - Number(a.stopping) ||
        TIER_RANK[b.tier] - TIER_RANK[a.tier] ||
        a.lastUsed - b.lastUsed,
    )[0];
  if (victim) return { kind: "evict", victim: victim.session };
  const kept = evictable.filter((v) => !mayEvict(self, v, mode)).map((v) => v.session);
  const busy = held.map((v) => v.session).filter((s) => !kept.includes(s));
  return { kind: "limit", busy, held: kept };
}
