/**
 * SPEC §2.1: a zero-config bridge started where it does not serve takes the first root the
 * MCP client lists that it would serve; the report says what each root was.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { type RootsAnswer, shellForRoots } from "../../../src/discovery/client-roots.ts";
import { zeroConfigShell } from "../../../src/discovery/zero-config.ts";
import { pathToUri } from "../../../src/workspace/uri.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const env = { HOME: "/nonexistent-home" };
const answering = (answer: RootsAnswer) => {
  const asked: number[] = [];
  const ask = async () => {
    asked.push(1);
    return answer;
  };
  return { asked, ask };
};

describe("shellForRoots", () => {
  const notAProject = tempDir("theodolite-roots-cwd-", ["notes/readme.txt"]);
  const project = tempDir("theodolite-roots-proj-", ["go.mod", "main.go"]);
  const other = tempDir("theodolite-roots-other-", ["package.json"]);
  const start = zeroConfigShell(notAProject, env);

  test("a directory zero-config serves is served: the client is not asked", async () => {
    const served = zeroConfigShell(project, env);
    const { asked, ask } = answering({ uris: [pathToUri(other)] });
    expect(await shellForRoots(served, ask, env)).toBe(served);
    expect(asked).toEqual([]);
  });

  test("refused: the first root that is a project is the workspace, the others listed", async () => {
    const { ask } = answering({
      uris: [
        "https://example.com/repo",
        pathToUri(`${notAProject}/missing`),
        pathToUri(notAProject),
        pathToUri(project),
        pathToUri(other),
      ],
    });
    const shell = await shellForRoots(start, ask, env);
    expect(shell.workspaces.map((w) => w.root)).toEqual([project]);
    expect(shell.discovery?.refused).toBeUndefined();
    expect(shell.discovery?.roots?.started_in).toBe(notAProject);
    expect(shell.discovery?.roots?.listed?.map((r) => [r.served, r.why])).toEqual([
      [false, "not a local file: URI"],
      [false, "it does not exist or cannot be read"],
      [false, expect.stringContaining("no project marker")],
      [true, `served (${project})`],
      [false, "not looked at: an earlier root is served"],
    ]);
  });

  test("no root served: the refusal stands, saying so; a client without roots changes nothing", async () => {
    const { ask } = answering({ uris: [pathToUri(notAProject)] });
    const shell = await shellForRoots(start, ask, env);
    expect(shell.workspaces.map((w) => w.root)).toEqual([notAProject]);
    expect(shell.discovery?.refused?.reason).toContain(
      "nor is any root the client listed a project it serves",
    );
    const none = await shellForRoots(start, answering({ none: "no roots" }).ask, env);
    expect(none.discovery?.refused).toEqual(start.discovery?.refused);
    expect(none.discovery?.roots).toEqual({
      started_in: notAProject,
      asked: "no roots",
      listed: null,
    });
  });
});
