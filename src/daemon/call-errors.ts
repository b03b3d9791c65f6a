/**
 * What `theodolite call` refuses or reports of its own (SPEC §2.2), built in one place:
 * its usage, SARIF for a column unit SARIF cannot say, and a dedicated bridge that closed
 * before it answered. A shared bridge's failures are shared-errors.ts's.
 */
import { BridgeError } from "../errors.ts";

export function callUsage(message: string): BridgeError {
  return new BridgeError("InvalidArgument", message, {
    hint: 'theodolite call TOOL \'{"file":"src/x.ts"}\' [--format json|sarif] [--config FILE] [--isolated]',
  });
}

/** `--format sarif` with a `column_unit` SARIF has no column kind for. */
export function sarifColumnsUnsaid(unit: string): BridgeError {
  return new BridgeError(
    "InvalidArgument",
    `--format sarif cannot say columns in ${unit} (SARIF counts UTF-16 code units or code points)`,
    {
      hint: 'set bridge.column_unit = "code-point" (or "utf-16") in the configuration for SARIF, or use --format json',
      details: { column_unit: unit },
    },
  );
}

/** The `--isolated` bridge's stdout ended with the call unanswered. */
export function dedicatedClosed(): BridgeError {
  return new BridgeError("SessionDead", "the dedicated bridge closed before it answered", {
    hint: "see its log on stderr; call again",
  });
}
