/**
 * Which files a server serves (SPEC §4.5): a file's extension must be a key of the
 * server's own `extensions` table. The table is a plain object parsed from TOML, so a
 * name such as `x.constructor` or `x.toString` must not find what every object inherits.
 */
import { extname } from "node:path";
import type { ServerConfig } from "./types.ts";

/** The languageId the server's `extensions` table gives `file`, or undefined: not its file. */
export function languageOfFile(
  server: Pick<ServerConfig, "extensions">,
  file: string,
): string | undefined {
  const ext = extname(file).slice(1);
  return ext.length > 0 && Object.hasOwn(server.extensions, ext)
    ? server.extensions[ext]
    : undefined;
}
