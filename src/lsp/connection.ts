/**
 * The JSON-RPC connection to one language server, over the pipes the
 * supervisor handed to it (vscode-jsonrpc does the framing; we never hand-roll it).
 */
import type { FileSink } from "bun";
import {
  createMessageConnection,
  type MessageConnection,
  ReadableStreamMessageReader,
  WriteableStreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { collector } from "../collector.ts";
import { log } from "../log.ts";
import { readableOf, writableOf } from "./byte-streams.ts";
import { installRuntime } from "./runtime.ts";

export function createLspConnection(
  input: ReadableStream<Uint8Array>,
  output: FileSink,
  label: string,
): MessageConnection {
  installRuntime();
  const conn = createMessageConnection(
    // what the server sends counts towards a collection after the answer (collector.ts)
    new ReadableStreamMessageReader(readableOf(input, (bytes) => collector.took(bytes))),
    new WriteableStreamMessageWriter(writableOf(output)),
    {
      error: (m) => log.debug(`[${label}] jsonrpc: ${m}`),
      warn: (m) => log.debug(`[${label}] jsonrpc: ${m}`),
      info: () => {},
      log: () => {},
    },
  );
  return conn;
}
