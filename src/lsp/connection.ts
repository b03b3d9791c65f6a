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
import { log } from "../log.ts";
import { readableOf, writableOf } from "./byte-streams.ts";

export function createLspConnection(
  input: ReadableStream<Uint8Array>,
  output: FileSink,
  label: string,
  /** told the size of every chunk the server sends */
  took: (bytes: number) => void = () => {},
): MessageConnection {
  const conn = createMessageConnection(
    new ReadableStreamMessageReader(readableOf(input, took)),
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
