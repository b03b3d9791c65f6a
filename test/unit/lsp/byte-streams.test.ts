/**
 * The server's pipes as vscode-jsonrpc's streams (src/lsp/byte-streams.ts): bytes in
 * order, the end reported, a message one flush, and a dead reader never an unhandled
 * rejection (which would end the bridge).
 */
import { describe, expect, test } from "bun:test";
import type { FileSink } from "bun";
import {
  type Message,
  ReadableStreamMessageReader,
  WriteableStreamMessageWriter,
} from "vscode-jsonrpc/node";
import { readableOf, writableOf } from "../../../src/lsp/byte-streams.ts";
import { endSink } from "../../../src/process/launch.ts";
import { waitFor, within } from "../../support/wait.ts";

function streamOf(chunks: Uint8Array[], fail?: Error): ReadableStream<Uint8Array> {
  let next = 0;
  // one chunk per pull: an error raised with chunks still queued would discard them
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk !== undefined) controller.enqueue(chunk);
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
}

/** A FileSink that records what it was given and when it was flushed. */
function recordingSink(flushResult: () => number | Promise<number> = () => 0) {
  const events: string[] = [];
  const sink = {
    write(data: string | ArrayBufferView) {
      events.push(
        `write ${typeof data === "string" ? data : new TextDecoder().decode(data as Uint8Array)}`,
      );
      return 0;
    },
    flush() {
      events.push("flush");
      return flushResult();
    },
    end() {
      events.push("end");
      return 0;
    },
  };
  return { sink: sink as unknown as FileSink, events };
}

describe("readableOf", () => {
  test("chunks reach the listener in order as Buffers, each counted; then end and close", async () => {
    const counted: number[] = [];
    const readable = readableOf(
      streamOf([new TextEncoder().encode("ab"), new TextEncoder().encode("cde")]),
      (n) => counted.push(n),
    );
    const got: string[] = [];
    const ends: string[] = [];
    readable.onEnd(() => ends.push("end"));
    readable.onClose(() => ends.push("close"));
    readable.onData((d) => {
      expect(Buffer.isBuffer(d)).toBe(true);
      got.push(Buffer.from(d).toString());
    });
    await waitFor(() => ends.length === 2, 2000, { what: "end and close" });
    expect(got).toEqual(["ab", "cde"]);
    expect(counted).toEqual([2, 3]);
    expect(ends).toEqual(["end", "close"]);
  });

  test("a failing stream reports its error, then closes", async () => {
    const readable = readableOf(streamOf([new Uint8Array([1])], new Error("pipe broke")));
    const seen: string[] = [];
    readable.onError((e) => seen.push(`error ${e.message}`));
    readable.onClose(() => seen.push("close"));
    readable.onData(() => seen.push("data"));
    await waitFor(() => seen.includes("close"), 2000, { what: "close" });
    expect(seen).toEqual(["data", "error pipe broke", "close"]);
  });
});

describe("writableOf", () => {
  test("a message is written header then body, with one flush after the body", async () => {
    const { sink, events } = recordingSink();
    const writer = new WriteableStreamMessageWriter(writableOf(sink));
    await writer.write({ jsonrpc: "2.0", method: "m" } as unknown as Message);
    const body = '{"jsonrpc":"2.0","method":"m"}';
    expect(events).toEqual([
      `write Content-Length: ${body.length}\r\n\r\n`,
      `write ${body}`,
      "flush",
    ]);
  });

  test("a flush that fails fails the write (the library reports it), unhandled nowhere", async () => {
    const broken = Object.assign(new Error("EPIPE: broken pipe, write"), { code: "EPIPE" });
    const { sink } = recordingSink(() => Promise.reject(broken));
    const writable = writableOf(sink);
    await expect(writable.write(new Uint8Array([1]))).rejects.toThrow("EPIPE");
  });

  test("a real pipe: messages round-trip through `cat` with the library on both ends, a 1 MB one included", async () => {
    const cat = Bun.spawn(["cat"], { stdio: ["pipe", "pipe", "ignore"] });
    try {
      const writer = new WriteableStreamMessageWriter(writableOf(cat.stdin));
      const reader = new ReadableStreamMessageReader(readableOf(cat.stdout));
      const got: Message[] = [];
      reader.listen((m) => got.push(m));
      const big = "é".repeat(512 * 1024); // 1 MB of UTF-8, more than the pipe holds
      const sent = [
        { jsonrpc: "2.0", method: "a", params: { n: 1 } },
        { jsonrpc: "2.0", method: "b", params: { text: big } },
        { jsonrpc: "2.0", method: "c", params: { n: 3 } },
      ] as unknown as Message[];
      for (const m of sent) await writer.write(m);
      await waitFor(() => got.length === 3, 10_000, { what: "three messages back" });
      expect(got).toEqual(sent);
    } finally {
      endSink(cat.stdin);
      cat.kill();
      await cat.exited;
    }
  });
});

describe("a server that dies with input pending", () => {
  test("the pending write fails with EPIPE to the library, and ending the input after it throws nothing", async () => {
    const child = Bun.spawn(["sleep", "30"], { stdio: ["pipe", "ignore", "ignore"] });
    const writable = writableOf(child.stdin);
    // 4 MB: more than the pipe takes, so the flush is still pending when the reader dies
    const pending = writable.write(new Uint8Array(4 * 1024 * 1024)).then(
      () => "flushed",
      (e: { code?: string }) => e.code ?? "failed",
    );
    endSink(child.stdin); // the end waits for that flush, and fails with it
    child.kill("SIGKILL");
    await within(child.exited, 5000, "exit");
    expect(await within(pending, 5000, "the pending flush")).toBe("EPIPE");
    // an unhandled rejection would be reported against this file by bun test
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
});
