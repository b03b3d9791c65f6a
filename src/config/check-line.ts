/** One line of `--check-config` output (SPEC §2): `ok` or `FAIL`, the key, what was found. */
export interface CheckResult {
  ok: boolean;
  line: string;
}

export function checkLine(ok: boolean, subject: string, text: string): CheckResult {
  return { ok, line: `${ok ? "ok  " : "FAIL"} ${subject} ${text}` };
}
