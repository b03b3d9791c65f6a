/**
 * The JSON-RPC connection to one language server, over the pipes the
 * supervisor handed to it: our bounded reader (message-reader.ts) frames what the server
 * writes; vscode-jsonrpc frames what the bridge sends, its queue bounded (message-writer.ts).
 */
import type { FileSink } from "bun";
import {
  createMessageConnection,
  type MessageConnection,
} from "vscode-languageserver-protocol/node";
import { log } from "../log.ts";
import { readableOf, writableOf } from "./byte-streams.ts";
import { BoundedMessageReader } from "./message-reader.ts";
import { BoundedMessageWriter } from "./message-writer.ts";

export function createLspConnection(
  input: ReadableStream<Uint8Array>,
  output: FileSink,
  label: string,
  /** bridge.max_server_message_bytes (SPEC §8) */
  maxMessageBytes: number,
  /** told the size of every chunk the server sends */
  took: (bytes: number) => void = () => {},
): MessageConnection {
  const conn = createMessageConnection(
    new BoundedMessageReader(readableOf(input, took), maxMessageBytes),
    new BoundedMessageWriter(writableOf(output)),
    {
      error: (m) => log.debug(`[${label}] jsonrpc: ${m}`),
      warn: (m) => log.debug(`[${label}] jsonrpc: ${m}`),
      info: () => {},
      log: () => {},
    },
  );
  return conn;
}
