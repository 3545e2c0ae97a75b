/**
 * The reply to an MCP message too large to read.
 *
 * @module
 */
import { WorkspaceError } from "../core/errors.ts";
import { errorResult } from "../registry/execute_tool_call.ts";
import type { OversizedLine } from "./bounded_line_reader.ts";
import { toCallToolResult } from "./call_tool_result.ts";
import type { JsonRpcMessage } from "./protocol_types.ts";

/**
 * The reply to a message too large to read: a `tools/call` gets an error
 * result (`TOOL_ARGUMENTS_INVALID` / `CONTENT_TOO_LARGE`, as an oversized
 * `write_file` content would), any other request a JSON-RPC error, a
 * notification nothing.
 *
 * @param line What was recovered from the message.
 * @param maxMessageBytes The limit it passed.
 * @returns The reply, or `undefined`.
 *
 * @example A transport that answers oversized calls as tool errors
 * ```ts
 * import process from "node:process";
 * import { BoundedStdioTransport, oversizedMessageReply } from "@paddock/tools/mcp";
 * oversizedMessageReply({ id: 7, method: "tools/call", bytes: 5_000_000 }, 4_194_304); // result isError, CONTENT_TOO_LARGE
 * oversizedMessageReply({ id: 8, method: "resources/read", bytes: 5_000_000 }, 4_194_304); // error -32600
 * const transport = new BoundedStdioTransport(process.stdin, process.stdout, { oversizedReply: oversizedMessageReply });
 * ```
 */
export function oversizedMessageReply(line: OversizedLine, maxMessageBytes: number): JsonRpcMessage | undefined {
  if (line.id === undefined) return undefined;
  if (line.method === "tools/call") {
    const error = new WorkspaceError(
      "CONTENT_TOO_LARGE",
      `The call has ${line.bytes} bytes, more than the ${maxMessageBytes} a message may have`,
      {
        hint: `a call may have at most ${
          maxMessageBytes.toLocaleString("en-US")
        } bytes: send large content in parts, over several calls`,
      },
    );
    const result = toCallToolResult(errorResult({ id: String(line.id), name: "" }, error));
    return { jsonrpc: "2.0", id: line.id, result } as JsonRpcMessage;
  }
  return {
    jsonrpc: "2.0",
    id: line.id,
    error: { code: -32600, message: `Request too large: more than ${maxMessageBytes} bytes` },
  } as JsonRpcMessage;
}
