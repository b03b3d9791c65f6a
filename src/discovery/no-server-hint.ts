/**
 * The hint of `NoServerForFile` in zero-config mode (SPEC §2.1, §4.6), pure: the presets
 * that would serve the file and why discovery left each out.
 */
import { basename, extname } from "node:path";
import { findPreset, PRESETS } from "../config/presets.ts";
import { languageOfFile } from "../config/server-files.ts";
import type { DiscoveryReport } from "../config/types.ts";

const AFTER =
  "then restart theodolite (zero-config discovers servers once, at start); " +
  "session_status shows what was looked for";

/** The hint for a call that found no server; undefined when zero-config has nothing to add. */
export function zeroConfigNoServerHint(
  report: DiscoveryReport,
  file: string | undefined,
  interpreter?: string,
): string | undefined {
  const none = () => {
    if (report.servers.some((s) => s.status === "configured")) return undefined;
    const names = PRESETS.map((p) => p.name).join(", ");
    return `zero-config found no usable language server: install one of ${names}, ${AFTER}`;
  };
  if (file === undefined) return none();
  const ext = extname(file).slice(1);
  // by the preset's own tables: names and `#!` interpreters as well as extensions
  const serving = report.servers.filter((s) => {
    const preset = findPreset(s.name);
    return preset
      ? languageOfFile(preset.server, file, interpreter) !== undefined
      : s.extensions.includes(ext);
  });
  const what = ext !== "" ? `.${ext} files` : `\`${basename(file)}\``;
  if (serving.length === 0 && ext === "") return none();
  if (serving.length === 0) {
    return (
      `no preset serves ${what}: write a bridge.toml with a [[server]] for them ` +
      "(`theodolite init` prints one to start from) and pass it with --config"
    );
  }
  // a configured server for these files lacks the call's role (bacon-ls only diagnoses):
  // the ones left out are what would answer
  const leftOut = serving.filter((s) => s.status === "left_out");
  if (leftOut.length === 0) return undefined;
  const names = leftOut.map((s) => s.name);
  const whys = leftOut.map((s) => `${s.name}: ${s.why}`).join("; ");
  const which = names.length === 1 ? names[0] : `one of ${names.join(", ")}`;
  const verb = ext !== "" ? "need" : "needs";
  return `${what} ${verb} ${names.join(" or ")}, left out (${whys}); install ${which}, ${AFTER}`;
}
