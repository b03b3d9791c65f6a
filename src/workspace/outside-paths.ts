/**
 * The paths a file names that may lead out of the root (SPEC §5.3 "dependencies outside the
 * root"), by rule rather than by key: in a configuration file, every word that reads as a
 * path — whatever key or flag holds it (`-I../x`, `"extends": "../base"`, `stubPath`,
 * `file:../pkg`, a `.clangd` `Add:`); in a source, every quoted relative path that climbs
 * above its own directory further than the file lies below the root (`#include
 * "../../common/cfg.h"`, `import … from "../../lib/x"`). Pure: the caller resolves what is
 * found against the file's directory and keeps what exists outside the root.
 */

/** Words longer than this are no path anyone writes (and cost nothing to skip). */
const MAX_WORD = 4096;

/** A flag or scheme glued before a path: `-I`, `-isystem`, `--include-directory=`, `file:`. */
const GLUED_PREFIX = /^(?:-{1,2}[A-Za-z][\w-]*=?|file:|link:|portal:)(?=[./])/;

/** tsconfig's placeholder for the directory of the file that holds it. */
const CONFIG_DIR = ["$", "{configDir}"].join("");

/** Cut a glob to the directory before its first wildcard (`../x/**\/*.h` → `../x`). */
export function beforeGlob(path: string): string {
  const wild = path.search(/[*?[{]/);
  if (wild < 0) return path;
  const slash = path.lastIndexOf("/", wild);
  return slash <= 0 ? (path.startsWith("/") ? "/" : ".") : path.slice(0, slash);
}

/** Whether `word` may leave the directory it is resolved against: absolute, or with `..`. */
function mayLeave(word: string): boolean {
  return word.startsWith("/") || word === ".." || /(?:^|\/)\.\.(?:\/|$)/.test(word);
}

/**
 * Every word of a configuration file's text that reads as a path able to leave its
 * directory, flags and schemes taken off, globs cut to their directory; each once, in order.
 * `anyRelative`: every relative path too (`./dep`), for a file whose own directory lies
 * outside the root.
 */
export function configurationPaths(text: string, anyRelative = false): string[] {
  const out = new Set<string>();
  // tsconfig's `${configDir}` is the file's own directory, what paths are resolved against
  const words = text.replaceAll(CONFIG_DIR, ".").split(/[\s"'`,;[\]{}()<>=]+/);
  for (const raw of words) {
    if (raw.length < 2 || raw.length > MAX_WORD) continue;
    const word = raw.replace(GLUED_PREFIX, "").replace(/:$/, "");
    // a comment's or a URL's `//`, a lone `/` or `/*`: no path anyone depends on
    if (word.startsWith("//") || /^[/*]+$/.test(word)) continue;
    if (!mayLeave(word) && !(anyRelative && word.startsWith("./"))) continue;
    const path = beforeGlob(word);
    if (path !== "/") out.add(path);
  }
  return [...out];
}

/** A quoted relative path in source text: `"../…"`, `'../…'`, `` `../…` ``, `<../…>`. */
const QUOTED_RELATIVE = /["'`<](\.\.\/[^"'`<>\n\r]{0,4096})["'`>]/g;
/** An include of an absolute path: `#include "/…"`, `#include </…>`, `#import`. */
const ABSOLUTE_INCLUDE =
  /^[ \t]*#[ \t]*(?:include|import|include_next)[ \t]*["<](\/[^"<>\n\r]{1,4096})[">]/gm;

/**
 * The quoted relative paths of a source whose `..` steps climb more than `depth` directories
 * (the file's directory lies `depth` below the root): only those can leave the root; and
 * the absolute paths it includes.
 */
export function escapingSourcePaths(text: string, depth: number): string[] {
  const out = new Set<string>();
  if (text.includes("../")) {
    for (const m of text.matchAll(QUOTED_RELATIVE)) {
      const path = m[1] as string;
      if (climb(path) > depth) out.add(beforeGlob(path));
    }
  }
  if (text.includes("#")) {
    for (const m of text.matchAll(ABSOLUTE_INCLUDE)) out.add(m[1] as string);
  }
  return [...out];
}

/** How many directories above its start a relative path reaches at its highest. */
export function climb(path: string): number {
  let level = 0;
  let highest = 0;
  for (const part of path.split("/")) {
    if (part === "..") highest = Math.max(highest, ++level);
    else if (part !== "" && part !== ".") level--;
  }
  return highest;
}
