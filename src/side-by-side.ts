/**
 * Work on several things at once, at most `width` at a time: the files of one diagnostics
 * answer (a server checks them side by side far faster than one after another), the
 * version commands of discovery (each starts a runtime).
 */

/** Files of one answer brought up to date at a time. */
export const FILES_AT_ONCE = 16;

/** `fn` on every item, at most `width` running at once; results in the items' order. */
export async function sideBySide<T, R>(
  items: readonly T[],
  width: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await fn(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
