/**
 * The server's stderr as the bridge keeps it (SPEC §8, §9.2): the supervisor's pid marker
 * found wherever it lands, the tail bounded, and a line without end kept to
 * STDERR_LINE_CHARS with a count of the rest, in time linear in what arrived.
 */
import { describe, expect, test } from "bun:test";
import { STDERR_LINE_CHARS, StderrCollector } from "../../../src/process/stderr-collector.ts";
import { SERVER_PID_MARKER } from "../../../src/process/supervisor.ts";

function collect(chunks: string[]): { c: StderrCollector; lines: string[] } {
  const c = new StderrCollector();
  const lines: string[] = [];
  c.onLine((l) => lines.push(l));
  for (const chunk of chunks) c.push(chunk);
  return { c, lines };
}

describe("the pid marker", () => {
  test("found after other output and split across chunks; kept out of lines and tail", async () => {
    const marker = `${SERVER_PID_MARKER}4242\n`;
    const { c, lines } = collect(["early", marker.slice(0, 10), marker.slice(10), " line\nnext\n"]);
    expect(await c.serverPid).toBe(4242);
    expect(lines).toEqual(["early line", "next"]);
    expect(c.tailText()).toBe("early line\nnext\n");
  });

  test("never found: after 64 KiB the text is stderr and the pid unknown", async () => {
    const { c, lines } = collect(["a\n", "b".repeat(70_000), "\n"]);
    expect(await c.serverPid).toBeUndefined();
    expect(lines[0]).toBe("a");
    expect(lines).toHaveLength(2);
  });

  test("one character at a time, the search stays linear", async () => {
    const text = `${"x".repeat(60_000)}${SERVER_PID_MARKER}7\n`;
    const c = new StderrCollector();
    const t0 = performance.now();
    for (const ch of text) c.push(ch);
    expect(await c.serverPid).toBe(7);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe("a line without end", () => {
  test("48 MiB without a newline: kept to the bound, the rest counted", () => {
    const { c, lines } = collect([`${SERVER_PID_MARKER}1\n`]);
    const chunk = "#".repeat(64 * 1024);
    const chunks = (48 * 1024 * 1024) / chunk.length;
    const t0 = performance.now();
    for (let i = 0; i < chunks; i++) c.push(chunk);
    expect(c.tailText().length).toBeLessThanOrEqual(4096);
    c.push("\rdone\n");
    // linear: a few hundred ms at most even on a loaded machine; quadratic took seconds
    expect(performance.now() - t0).toBeLessThan(3000);
    const total = 48 * 1024 * 1024 + "\rdone".length;
    expect(lines).toEqual([
      `${"#".repeat(STDERR_LINE_CHARS)}… (${total - STDERR_LINE_CHARS} more characters dropped)`,
    ]);
    expect(c.tailText().length).toBeLessThanOrEqual(4096);
  });

  test("the next line is whole again; an unterminated last line is emitted at the end", () => {
    const { c, lines } = collect([`${SERVER_PID_MARKER}1\n`, "y".repeat(5000), "\nshort\nlast"]);
    c.end();
    expect(lines[0]).toEndWith("… (904 more characters dropped)");
    expect(lines.slice(1)).toEqual(["short", "last"]);
  });
});
