import { describe, expect, test } from "bun:test";
import { diagnosticsToSarif } from "../../../src/daemon/sarif.ts";
import { sarifProblems } from "../../support/sarif.ts";

describe("diagnosticsToSarif (SPEC §2.2)", () => {
  const answer = {
    diagnostics: [
      {
        file: "src/a.ts",
        line: 2,
        column: 3,
        end_line: 2,
        end_column: 9,
        severity: "error",
        code: "TS2304",
        source: "ts",
        message: "Cannot find name",
      },
      {
        file: "src/b.ts",
        line: 1,
        column: 1,
        end_line: 3,
        end_column: 1,
        severity: "hint",
        message: "unused",
      },
      { uri: "untitled:x", line: 1, column: 1, severity: "information", message: "info" },
    ],
    files: ["src/a.ts"],
    snapshot: "s",
  };

  test("one valid SARIF 2.1.0 run, a result per diagnostic", () => {
    const log = diagnosticsToSarif(answer, "1.2.3");
    expect(sarifProblems(log)).toEqual([]);
    expect(log).toMatchObject({
      version: "2.1.0",
      runs: [{ tool: { driver: { name: "theodolite", version: "1.2.3" } } }],
    });
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

  test("a since answer's added diagnostics; none is an empty run", () => {
    expect(diagnosticsToSarif({ added: answer.diagnostics.slice(0, 1) }, "1").runs).toMatchObject([
      { results: [{ ruleId: "TS2304" }] },
    ]);
    expect(diagnosticsToSarif({ diagnostics: [] }, "1").runs).toMatchObject([{ results: [] }]);
  });

  test("the checker finds what is wrong", () => {
    expect(
      sarifProblems({
        version: "2.0.0",
        runs: [
          {
            tool: {},
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
    ]);
  });
});
