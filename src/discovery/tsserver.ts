/**
 * The TypeScript typescript-language-server would drive, when the workspace has none
 * (SPEC §2.1), read from disk without running anything. It needs a TypeScript with
 * `lib/tsserver.js` (5.x and older: 7.x has none, and the server then fails to
 * initialize). Candidates in order: the `typescript` Node resolves from the server's own
 * package (what it finds by itself; a global install puts the two side by side), then
 * the package of the `tsc` on PATH. Discovery pins the one found.
 */
import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import { typescriptPackage, type WorkspaceTypescript, workspaceTypescript } from "./toolchain.ts";

export type TsserverChoice =
  | { found: WorkspaceTypescript & { tsserver: string }; from: string }
  | { missing: string };

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

const usable = (ts: WorkspaceTypescript | null): ts is WorkspaceTypescript & { tsserver: string } =>
  ts !== null && ts.tsserver !== null && ts.major < 7;

const described = (ts: WorkspaceTypescript) =>
  `${ts.package} is TypeScript ${ts.version}${ts.tsserver === null ? ", without lib/tsserver.js" : ""}`;

/** `tls`: the server's command as found; `tsc`: the `tsc` on PATH, if any. */
export function tsserverFor(tls: string, tsc: string | null): TsserverChoice {
  const seen: string[] = [];
  const own = real(tls);
  const beside = own === null ? null : workspaceTypescript(dirname(own));
  if (usable(beside)) return { found: beside, from: "beside it" };
  seen.push(beside === null ? "none beside it" : `beside it, ${described(beside)}`);
  const tscReal = tsc === null ? null : real(tsc);
  const pkg = tscReal === null ? null : dirname(dirname(tscReal));
  const onPath = pkg !== null && basename(pkg) === "typescript" ? typescriptPackage(pkg) : null;
  if (usable(onPath)) return { found: onPath, from: `of the tsc on PATH (${tsc})` };
  if (onPath !== null && onPath.package !== beside?.package) {
    seen.push(`the tsc on PATH: ${described(onPath)}`);
  }
  return {
    missing:
      `no TypeScript with lib/tsserver.js for it (${seen.join("; ")}); ` +
      "install typescript@5 in the workspace (npm i -D typescript@5) or beside it (npm i -g typescript@5)",
  };
}
