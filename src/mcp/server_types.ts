/**
 * The MCP server's public types: its options, flow control, the transport
 * and connection it is served over, and the ready server.
 *
 * @module
 */
import type { Sandbox } from "../core/process/command_sandbox.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import type { ToolRegistry } from "../registry/tool_registry.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { McpRoot } from "./root_set.ts";
import type { McpShellMode } from "./shell_mode.ts";
import type { JsonRpcMessage } from "./protocol_types.ts";

/** Options of {@link createPaddockMcpServer}. */
export interface PaddockMcpServerOptions {
  /** The workspace, or its root folder: the default root, which bare paths address. Client roots never widen it. */
  root: Workspace | string;
  /**
   * More folders to serve, each addressed by tools as `NAME:path`, where
   * `NAME` is the folder's own name made unique (see `list_allowed_directories`).
   * Only file tools reach them; `node_process` and `shell` run in `root`.
   * @default []
   */
  roots?: readonly (Workspace | string)[];
  /** Offer only the read-only tools. @default false */
  readOnly?: boolean;
  /** Offer `node_process` (not in read-only mode). @default true */
  nodeProcess?: boolean;
  /**
   * The stale-write guard of `write_file`, `edit_file` and `apply_patch`: an existing file must have
   * been read in this session, and be unchanged since, before they change it
   * (`FILE_NOT_READ`, `FILE_CHANGED_SINCE_READ`). `paddock mcp --stale-write-guard off` turns it off.
   * @default true
   */
  staleWriteGuard?: boolean;
  /**
   * Search the default root in the background once the client's handshake is done (`grep`'s `warmUp`, with
   * `warmUpAfter` the handshake: 2 s and 10 whole-tree passes at
   * most, ended by the first call), so that the session's first grep does not pay the runtime's
   * first runs of the search code. A signal instead of `true` also ends it when it aborts
   * (`serveStdio` aborts one as the session ends, so the warm-up never keeps the process alive).
   * `paddock mcp` turns it on; `--warm-up off` leaves it off.
   * @default false
   */
  warmUp?: boolean | AbortSignal;
  /** `node_process`'s time limit per script, in milliseconds. @default 500 (`NODE_PROCESS_TIMEOUT_MS`) */
  nodeProcessTimeoutMs?: number;
  /** How the `shell` tool is offered (not in read-only mode). @default { mode: "off" } */
  shell?: McpShellMode;
  /**
   * An OS sandbox that `node_process` scripts and `shell` commands run in
   * (`paddock mcp` passes a `BubblewrapSandbox` when one works here).
   * @default undefined (node_process under the runtime's permissions; shell commands unconfined)
   */
  sandbox?: Sandbox;
  /** More tools to offer beside Paddock's own (e.g. your own tools over the same workspace). @default [] */
  tools?: AnyTool[];
  /** Tool calls running at once; the rest wait. @default 16 ({@link MCP_MAX_CONCURRENT_CALLS}) */
  maxConcurrentCalls?: number;
  /** Calls waiting for a slot before `flowControl` pauses the input. @default 64 ({@link MCP_MAX_QUEUED_CALLS}) */
  maxQueuedCalls?: number;
  /**
   * Pauses and resumes reading requests (the transport's input), so a flood
   * of calls waits in the pipe instead of in memory. @default none (no backpressure)
   */
  flowControl?: FlowControl;
}

/** Pauses and resumes the input of a transport. */
export interface FlowControl {
  /** Stops reading messages. */
  pause(): void;
  /** Reads messages again. */
  resume(): void;
}

/**
 * An MCP transport, as far as {@link McpServerConnection.connect} needs it:
 * any `Transport` of the MCP SDK (`StdioServerTransport`, an in-memory pair, …).
 */
export interface McpTransport {
  /** Starts the transport. */
  start(): Promise<void>;
  /** Sends one JSON-RPC message. */
  send(message: JsonRpcMessage): Promise<void>;
  /** Closes the transport. */
  close(): Promise<void>;
}

/**
 * The server's connection side: the MCP SDK's `Server`, typed by the
 * methods and handlers callers use, so Paddock's public types name none of
 * the SDK's.
 */
export interface McpServerConnection {
  /** Serves over `transport` until it closes. */
  connect(transport: McpTransport): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
  /** Called when the connection closes. @default undefined */
  onclose?: () => void;
  /** Called on a protocol or transport error. @default undefined */
  onerror?: (error: Error) => void;
  /**
   * Called once the client's handshake is done (`notifications/initialized`). Yours to set: the server's own
   * start after the handshake (the client's roots, grep's warm-up) does not go through it. @default undefined
   */
  oninitialized?: () => void;
}

/** A ready MCP server and the registry behind it. */
export interface PaddockMcpServer {
  /** The server (the MCP SDK's `Server`); connect it to a transport. */
  server: McpServerConnection;
  /** The tools it offers. */
  registry: ToolRegistry;
  /** The confined workspace of the default root. */
  workspace: Workspace;
  /** Every root served, the default first, with the names tools address them by. */
  roots: readonly McpRoot[];
}
