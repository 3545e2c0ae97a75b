/**
 * The Paddock MCP server: the Paddock tools over the Model Context Protocol,
 * built on the official SDK. The `paddock mcp` command runs it over stdio, or
 * over Streamable HTTP with `--http` ({@link serveHttp}).
 *
 * @example Serving a folder over stdio
 * ```ts
 * import { serveStdio } from "@paddock/tools/mcp";
 * await serveStdio({ root: "./project", readOnly: true });
 * ```
 *
 * @module
 */
import { registerDefaultHost } from "../core/fs/default_host.ts";
import { registerCallScope } from "../core/fs/call_scope.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { asyncCallScope } from "../hosts/async_call_scope.ts";

registerDefaultHost(createAutoHost);
registerCallScope(asyncCallScope);

export { createPaddockMcpServer } from "./server.ts";
export { createMcpRegistry } from "./create_mcp_registry.ts";
export { oversizedMessageReply } from "./oversized_message_reply.ts";
export { toCallToolResult } from "./call_tool_result.ts";
export type {
  FlowControl,
  McpServerConnection,
  McpTransport,
  PaddockMcpServer,
  PaddockMcpServerOptions,
} from "./server_types.ts";
export { SHELL_OFF, shellToolOptions } from "./shell_mode.ts";
export type { McpRoot } from "./root_set.ts";
export type { AllowedDirectory, ListAllowedDirectoriesOutput } from "./list_allowed_directories.ts";
export type { McpShellMode } from "./shell_mode.ts";
export { BoundedStdioTransport } from "./stdio_transport.ts";
export type { OversizedLine } from "./bounded_line_reader.ts";
export type { ScannedMessage } from "./message_head_scanner.ts";
export type { CallToolResultJson, JsonRpcMessage, ListedTool } from "./protocol_types.ts";
export type { BoundedStdioTransportOptions, ByteSink, ByteSource } from "./stdio_transport.ts";
export { serveStdio } from "./serve_stdio.ts";
export type { StdioStreams } from "./serve_stdio.ts";
export { serveHttp } from "./serve_http.ts";
export type { HttpLimits, PaddockHttpServer, ServeHttpOptions } from "./serve_http.ts";
export type { HttpAuth } from "./http_auth.ts";
export { createCallLimiter } from "./call_limiter.ts";
export type { CallLimiter } from "./call_limiter.ts";
export { VERSION } from "../version.ts";
