/**
 * The size cap's refusal (SPEC §4.4), built in one place: `ResultTooLarge` with the real
 * size and item count, a `limit` known to fit when the tool pages, and a summary.
 */
import { BridgeError } from "../errors.ts";

/** What ResultTooLarge tells besides the sizes: a `limit` known to fit, a summary. */
export interface TooLargeHelp {
  limit: number | undefined;
  /** the call's offset, for the hint with a `limit` */
  offset: number;
  summary: Record<string, unknown>;
  /** what to do when no `limit` helps (default: narrow the request) */
  hint: string | undefined;
}

/** ResultTooLarge (SPEC §4.4): the real size and item count, and the help the answer carries. */
export function resultTooLarge(
  bytes: number,
  count: number,
  maxBytes: number,
  help: TooLargeHelp,
): BridgeError {
  const { limit } = help;
  const hint =
    limit !== undefined
      ? `page with limit=${limit} and offset=${help.offset} (every page of that size fits), or narrow the request`
      : (help.hint ??
        "narrow the request (another file, position or query); max_result_bytes bounds every result");
  return new BridgeError(
    "ResultTooLarge",
    `result is ${bytes} bytes (${count} items), over the ${maxBytes}-byte limit`,
    {
      hint,
      details: {
        count,
        bytes,
        max_bytes: maxBytes,
        ...(limit !== undefined ? { limit } : {}),
        ...help.summary,
      },
    },
  );
}
