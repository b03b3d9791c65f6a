/**
 * Who may start a server tree (SPEC §9.1): a pure decision over the sessions as the
 * manager sees them at one moment. A session occupies a slot from the moment it is
 * admitted until its tree is gone — starting, live and stopping trees all count. When
 * every slot is taken, the least recently used idle session is evicted (one already
 * stopping first: it frees its slot soonest); when none is idle, SessionLimit.
 */

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
}

export type AdmissionDecision<S> =
  | { kind: "admit" }
  | { kind: "evict"; victim: S }
  | { kind: "limit"; busy: S[] };

/**
 * Admit `incoming`, evict one victim first, or refuse. `tried` are victims already evicted
 * for this admission: each is chosen at most once, so a decision loop always ends.
 */
export function decideAdmission<S>(
  incoming: S,
  views: readonly SlotView<S>[],
  maxSessions: number,
  tried: ReadonlySet<S> = new Set(),
): AdmissionDecision<S> {
  const held = views.filter((v) => v.session !== incoming && v.occupies);
  if (held.length < maxSessions) return { kind: "admit" };
  const victim = held
    .filter((v) => v.idle && !v.reserved && !tried.has(v.session))
    .sort((a, b) => Number(b.stopping) - Number(a.stopping) || a.lastUsed - b.lastUsed)[0];
  if (victim) return { kind: "evict", victim: victim.session };
  return { kind: "limit", busy: held.map((v) => v.session) };
}
