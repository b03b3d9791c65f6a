/**
 * Error texts name paths the way results do (SPEC §4.3, §4.6): a path inside the call's
 * workspace is workspace-relative (the root itself is "."), a path outside stays
 * absolute. Applied to the whole envelope — message, hint and every string in details —
 * when it is built, so no error site can leak an absolute workspace path and the same
 * failure gives the same bytes wherever the workspace lives. Pure but for the root's
 * realpath (an error may name the real or the configured spelling).
 */
import type { ErrorEnvelope } from "../errors.ts";
import { realRoot } from "./files.ts";
import { pathToUri } from "./uri.ts";

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What may follow a path: a separator, the end, or a character no path name would end on. */
const AFTER = String.raw`(?=/|$|[\s"'\`,;:)\]}>])`;
/** What may precede one: the start, or a character that cannot be part of a longer path. */
const BEFORE = String.raw`(?<![\w.~/-])`;

type Rewrite = (text: string) => string;

/** A URI's path part as a path; a malformed escape leaves the whole URI as it was. */
function decoded(rest: string, whole: string): string {
  try {
    return decodeURIComponent(rest);
  } catch {
    return whole;
  }
}

/** A rewriter for texts that may name paths under `root` (absolute, normalized). */
export function relativizer(root: string): Rewrite {
  if (root === "/" || root === "") return (text) => text; // every path is "inside": leave them
  const spellings = [...new Set([root, realRoot(root)])].sort((a, b) => b.length - a.length);
  const rules: [RegExp, (m: string, rest: string | undefined) => string][] = [];
  const needles: string[] = [];
  for (const spelling of spellings) {
    const uri = pathToUri(spelling);
    needles.push(spelling, uri);
    // file:///root/x → x, and file:///root → "."; before the plain form, which it contains
    rules.push([
      new RegExp(`${literal(uri)}(?:/([^\\s"'\`,;)\\]}>]*))?${AFTER}`, "g"),
      (m, rest) => (rest ? decoded(rest, m) : "."),
    ]);
    rules.push([
      new RegExp(`${BEFORE}${literal(spelling)}(?:/([^\\s"'\`,;)\\]}>]*))?${AFTER}`, "g"),
      (_m, rest) => rest || ".",
    ]);
  }
  return (text) => {
    if (!needles.some((n) => text.includes(n))) return text;
    let out = text;
    for (const [re, to] of rules) out = out.replace(re, (m, rest) => to(m, rest));
    return out;
  };
}

function rewriteValue(value: unknown, rewrite: Rewrite): unknown {
  if (typeof value === "string") return rewrite(value);
  if (Array.isArray(value)) return value.map((v) => rewriteValue(v, rewrite));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        rewriteValue(v, rewrite),
      ]),
    );
  }
  return value;
}

/** The envelope with every path under `root` workspace-relative; unchanged without a root. */
export function relativizeEnvelope(env: ErrorEnvelope, root: string | undefined): ErrorEnvelope {
  if (root === undefined) return env;
  const rewrite = relativizer(root);
  const out: ErrorEnvelope = { code: env.code, message: rewrite(env.message) };
  if (env.hint !== undefined) out.hint = rewrite(env.hint);
  if (env.details !== undefined) {
    out.details = rewriteValue(env.details, rewrite) as Record<string, unknown>;
  }
  return out;
}
