/**
 * A promise or `undefined` after `ms`, whichever comes first; the timer is
 * cleared either way. Used only for grace periods and bounds (SPEC §9.2), never
 * to wait for readiness or for diagnostics to settle.
 */
export function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<undefined>((resolve) => {
    handle = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(handle));
}
