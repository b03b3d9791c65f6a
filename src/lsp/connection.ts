/**
 * The JSON-RPC connection to one language server, over the pipes the
 * supervisor handed to it (vscode-jsonrpc does the framing; we never hand-roll it).
 */
import type { Readable, Writable } from "node:stream";
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { collector } from "../collector.ts";
import { log } from "../log.ts";
import { installRuntime } from "./runtime.ts";

export function createLspConnection(
  input: Readable,
  output: Writable,
  label: string,
): MessageConnection {
  installRuntime();
  // what the server sends counts towards a collection after the answer (collector.ts)
  input.on("data", (chunk: Buffer) => collector.took(chunk.length));
  const conn = createMessageConnection(
    new StreamMessageReader(input),
    new StreamMessageWriter(output),
    {
      error: (m) => log.debug(`[${label}] jsonrpc: ${m}`),
      warn: (m) => log.debug(`[${label}] jsonrpc: ${m}`),
      info: () => {},
      log: () => {},
    },
  );
  return conn;
}
