/**
 * What the command line refuses (SPEC §2), built in one place: a usage error, a machine
 * the bridge cannot serve on (exit 3), and the directories `theodolite init` does not
 * configure. Printed as one JSON line on stderr by main.ts.
 */
import { BridgeError } from "../errors.ts";
import type { EnvironmentProblem } from "../process/environment.ts";

/** Arguments main.ts does not accept. */
export function usageError(message: string): BridgeError {
  return new BridgeError("InvalidArgument", message, { hint: "see theodolite --help" });
}

/** What the machine lacks, every problem said at once. */
export function environmentUnsupported(problems: readonly EnvironmentProblem[]): BridgeError {
  return new BridgeError("EnvironmentUnsupported", problems.map((p) => p.message).join("; "), {
    hint: problems.map((p) => p.hint).join("; "),
    details: { missing: problems.map((p) => p.what) },
  });
}

/** `init DIR` with a path `abs` that is no directory. */
export function initNoDirectory(abs: string): BridgeError {
  return new BridgeError(
    "ConfigInvalid",
    `workspace directory ${abs} does not exist or is not a directory`,
    {
      hint: "pass an existing directory",
      details: { path: "workspace.root", expected: "an existing directory" },
    },
  );
}

/** `init DIR` in a directory zero-config refuses (`reason`: which, from root-guard.ts). */
export function initRefused(dir: string, reason: string): BridgeError {
  return new BridgeError("ConfigInvalid", `theodolite init does not configure ${dir}: ${reason}`, {
    hint: "pass the project's directory: theodolite init DIR",
    details: { path: "workspace.root", reason },
  });
}

/** `init DIR` where no server is usable; `binaries`: each preset's, as the hint lists them. */
export function initNoServer(
  dir: string,
  leftOut: readonly { name: string; why: string }[],
  binaries: readonly string[],
): BridgeError {
  return new BridgeError(
    "ConfigInvalid",
    `no usable language server was found for ${dir} (left out: ${leftOut.map((s) => `${s.name}: ${s.why}`).join("; ")})`,
    {
      hint: `install one of: ${binaries.join(", ")}; or write a bridge.toml (see bridge.toml.example)`,
    },
  );
}
