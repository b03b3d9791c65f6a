import { describe, expect, test } from "bun:test";
import { diagnosticsToSarif, sarifColumnKind } from "../../../src/daemon/sarif.ts";
import { range } from "../../support/normalize-context.ts";
import { sarifProblems } from "../../support/sarif.ts";

describe("diagnosticsToSarif (SPEC §2.2)", () => {
  const answer = {
    diagnostics: [
      {
        file: "src/a.ts",
        ...range(2, 3, 2, 9),
        severity: "error",
        code: "TS2304",
        source: "ts",
        message: "Cannot find name",
      },
      {
        file: "src/b.ts",
        ...range(1, 1, 3, 1),
        severity: "hint",
        message: "unused",
      },
      { uri: "untitled:x", line: 1, column: 1, severity: "information", message: "info" },
    ],
    files: ["src/a.ts"],
    snapshot: "s",
  };

  test("one valid SARIF 2.1.0 run, a result per diagnostic", () => {
    const log = diagnosticsToSarif(answer, "1.2.3", "unicodeCodePoints");
    expect(sarifProblems(log)).toEqual([]);
    expect(log).toMatchObject({
      version: "2.1.0",
      runs: [
        {
          tool: { driver: { name: "theodolite", version: "1.2.3" } },
          columnKind: "unicodeCodePoints",
          properties: { files: ["src/a.ts"], snapshot: "s" },
        },
      ],
    });
    // a sure answer carries no notification
    expect((log.runs as Record<string, unknown>[])[0]?.invocations).toBeUndefined();
    const results = (log.runs as { results: Record<string, unknown>[] }[])[0]?.results ?? [];
    expect(results[0]).toEqual({
      ruleId: "TS2304",
      level: "error",
      message: { text: "Cannot find name" },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "src/a.ts" },
            region: { startLine: 2, startColumn: 3, endLine: 2, endColumn: 9 },
          },
        },
      ],
      properties: { source: "ts" },
    });
    expect(results.map((r) => r.level)).toEqual(["error", "note", "note"]);
    expect(results[1]?.ruleId).toBeUndefined();
  });

  test("a workspace path is a relative URI reference, percent-encoded; a URI stays", () => {
    const odd = { ...answer, diagnostics: [{ ...answer.diagnostics[0], file: "d ir/a b#ü.py" }] };
    const log = diagnosticsToSarif(odd, "1.2.3", "unicodeCodePoints");
    expect(sarifProblems(log)).toEqual([]);
    const [r] = (log.runs as { results: { locations: unknown[] }[] }[])[0]?.results ?? [];
    expect(r?.locations).toEqual([
      expect.objectContaining({
        physicalLocation: expect.objectContaining({
          artifactLocation: { uri: "d%20ir/a%20b%23%C3%BC.py" },
        }),
      }),
    ]);
  });

  test("a since answer's added diagnostics; none is an empty run", () => {
    const since = {
      added: answer.diagnostics.slice(0, 1),
      removed: [],
      unchanged: 3,
      snapshot: "t",
    };
    expect(diagnosticsToSarif(since, "1", "utf16CodeUnits").runs).toEqual([
      expect.objectContaining({
        results: [expect.objectContaining({ ruleId: "TS2304" })],
        properties: { snapshot: "t" },
      }),
    ]);
    expect(diagnosticsToSarif({ diagnostics: [] }, "1", "utf16CodeUnits").runs).toMatchObject([
      { results: [] },
    ]);
  });

  test("columnKind is the bridge's column unit; SARIF has none for UTF-8", () => {
    expect(sarifColumnKind("utf-16")).toBe("utf16CodeUnits");
    expect(sarifColumnKind("code-point")).toBe("unicodeCodePoints");
    expect(sarifColumnKind("utf-8")).toBeUndefined();
  });

  test("an unsure answer (complete: false, settled: false) is a warning of the run's invocation, its marks the run's properties", () => {
    const unsure = {
      ...answer,
      complete: false,
      settled: false,
      unsettled: [{ file: "src/a.ts", reason: "publish" }],
    };
    const log = diagnosticsToSarif(unsure, "1", "unicodeCodePoints");
    expect(sarifProblems(log)).toEqual([]);
    const [run] = log.runs as Record<string, unknown>[];
    expect(run?.properties).toMatchObject({
      complete: false,
      settled: false,
      unsettled: unsure.unsettled,
    });
    expect(run?.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          { level: "warning", message: { text: expect.stringContaining("complete: false") } },
        ],
      },
    ]);
    const text = JSON.stringify(run?.invocations);
    expect(text).toContain("1 file(s) may not be checked");
  });

  test("the checker finds what is wrong", () => {
    expect(
      sarifProblems({
        version: "2.0.0",
        runs: [
          {
            tool: {},
            columnKind: "bytes",
            invocations: [{ toolExecutionNotifications: [] }],
            results: [
              {
                level: "fatal",
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: "/abs" },
                      region: { startLine: 0 },
                    },
                  },
                ],
              },
            ],
          },
        ],
      }),
    ).toEqual([
      'version: must be "2.1.0"',
      "runs[0].tool.driver.name: required string",
      "runs[0].results[0].message.text: required string",
      "runs[0].results[0].level: not one of none,note,warning,error",
      "runs[0].results[0].locations[0]: artifactLocation.uri must be a (relative) URI reference",
      "runs[0].results[0].locations[0].region.startLine: not an integer >= 1",
      "runs[0].columnKind: not one of utf16CodeUnits,unicodeCodePoints",
      "runs[0].invocations[0].executionSuccessful: required boolean",
    ]);
  });
});
