/**
 * One line of `--check-config` output (SPEC §2): `ok` or `FAIL`, the configuration key
 * checked, what was found. The commands print them; checks other modules own (required
 * workspace files, SPEC §3.4) build them too.
 */
export interface CheckResult {
  ok: boolean;
  line: string;
}

export function checkLine(ok: boolean, subject: string, text: string): CheckResult {
  return { ok, line: `${ok ? "ok  " : "FAIL"} ${subject} ${text}` };
}
