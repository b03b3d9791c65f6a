/**
 * How often something occurs in a text, and where every so many end, found by native
 * regular-expression scans, a block of occurrences a call (SPEC §8.2): the bridge runs with a JIT policy that keeps a loop per
 * character in slow tiers (docs/TOOLCHAIN.md#the-jit-policy), and a text of 8 MiB of line
 * breaks or control characters has one occurrence per character. A sticky expression that
 * matches BLOCK occurrences at once is one call per BLOCK.
 *
 * `skip` (what lies between two occurrences) and `unit` (one occurrence) must share no
 * parse: `skip` never matches the start of a unit, and a unit matches in one way only, so a
 * failed block backtracks once over its own span — linear time whatever the text.
 */

/** Occurrences a call matches: many, then fewer for what is left. */
const BLOCKS = [4096, 64];

/** Occurrences of `unit` in `text` from `at`, each preceded by what `skip` matches. */
export function countFrom(text: string, skip: string, unit: string, at: number): number {
  // one forward search first: for none, a block's failure would cost two passes
  const one = new RegExp(unit, "g");
  one.lastIndex = at;
  if (!one.test(text)) return 0;
  let n = 0;
  let from = at;
  for (const size of BLOCKS) {
    const block = new RegExp(`(?:${skip}(?:${unit})){${size}}`, "y");
    block.lastIndex = from;
    while (block.test(text)) {
      n += size;
      from = block.lastIndex;
    }
  }
  // fewer than the last block left: one at a time
  one.lastIndex = from;
  while (one.test(text)) n += 1;
  return n;
}

/** Where every `every`-th occurrence of `unit` ends (as countFrom counts them). */
export function occurrenceEnds(text: string, skip: string, unit: string, every: number): number[] {
  const ends: number[] = [];
  if (!new RegExp(unit).test(text)) return ends;
  const block = new RegExp(`(?:${skip}(?:${unit})){${every}}`, "y");
  while (block.test(text)) ends.push(block.lastIndex);
  return ends;
}

/** Characters of the class `chars` (the body of a `[…]`, escaped) in `text`. */
export function countChars(text: string, chars: string): number {
  return countFrom(text, `[^${chars}]*`, `[${chars}]`, 0);
}
