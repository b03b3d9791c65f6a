/** `--exec-server`'s arguments (SPEC §9.2): what the supervisor builds, parsed back. */
import { describe, expect, test } from "bun:test";
import { formatExecServerArgs, parseExecServerArgs } from "../../../src/process/exec-server.ts";

describe("exec-server arguments", () => {
  test("format and parse round-trip, server args kept verbatim", () => {
    const valid = { parentPid: 42, command: "/opt/ls/server", args: ["--stdio", "--", "-x", ""] };
    expect(formatExecServerArgs(valid)).toEqual([
      "--parent-pid",
      "42",
      "--",
      "/opt/ls/server",
      "--stdio",
      "--",
      "-x",
      "",
    ]);
    expect(parseExecServerArgs(formatExecServerArgs(valid))).toEqual(valid);
  });

  test("invalid argv is refused with a reason", () => {
    expect(parseExecServerArgs([])).toBe("missing --parent-pid N");
    expect(parseExecServerArgs(["--parent-pid", "0", "--", "/s"])).toBe("missing --parent-pid N");
    expect(parseExecServerArgs(["--parent-pid", "-1", "--", "/s"])).toBe("missing --parent-pid N");
    expect(parseExecServerArgs(["--parent-pid", "7", "/s"])).toBe("missing `-- SERVER`");
    expect(parseExecServerArgs(["--parent-pid", "7", "--"])).toBe("missing `-- SERVER`");
    expect(parseExecServerArgs(["--parent-pid", "7", "--", "server"])).toBe(
      "the server command must be an absolute path",
    );
  });
});
