import { Server } from "@modelcontextprotocol/sdk/server";
import type { Sandbox } from "../core/process/command_sandbox.ts";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { MCP_MAX_CONCURRENT_CALLS, MCP_MAX_QUEUED_CALLS } from "../core/limits.ts";
import { DEFAULT_PROTECTED_PATHS } from "../core/fs/protected_paths.ts";
import { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import { type ApprovalRequest, errorResult, executeToolCall } from "../registry/execute_tool_call.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import { SandboxShell } from "../sandbox/sandbox_shell.ts";
import { createCodingTools, createReadOnlyTools } from "../tools/coding_tools.ts";
import { createShellTool } from "../tools/shell.ts";
import type { AnyTool, ToolProgress } from "../tools/tool.ts";
import { VERSION } from "../version.ts";
import type { OversizedLine } from "./bounded_line_reader.ts";
import { approvalSummary } from "./approval_summary.ts";
import { withRelativePathHint } from "./relative_path_hint.ts";
import { outputSchemaOf } from "./output_schemas.ts";
import { createReadMultipleFilesTool } from "./read_multiple_files.ts";
import { createListAllowedDirectoriesTool } from "./list_allowed_directories.ts";
import { type McpRoot, nameRoots, RootSet } from "./root_set.ts";
import { followClientRoots } from "./follow_client_roots.ts";
import { toCallToolResult } from "./call_tool_result.ts";
import { prefixResultPaths, routeCall } from "./route_call.ts";
import { createReadTool } from "../tools/read_file.ts";
import { toolAnnotations } from "./tool_annotations.ts";
import { createCallLimiter } from "./call_limiter.ts";
import { type McpShellMode, SHELL_OFF, shellToolOptions } from "./shell_mode.ts";
import {
  CallToolRequestSchema,
  type CallToolResultJson,
  type JsonRpcMessage,
  type ListedTool,
  ListToolsRequestSchema,
} from "./protocol_types.ts";

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
 * The server's connection side: the MCP SDK's `Server`, typed by the two
 * methods callers use, so Paddock's public types name none of the SDK's.
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

/**
 * Builds the tool registry the MCP server offers: the coding tools (or the
 * read-only ones), without `node_process` when turned off, plus `shell` per
 * its policy, the server's own `read_multiple_files` and
 * `list_allowed_directories`, and any extra tools (only read-only ones in
 * read-only mode). New tools added to {@link createCodingTools} appear here
 * without change.
 *
 * @param workspace The confined workspace.
 * @param options What to offer.
 * @returns The registry.
 */
export function createMcpRegistry(
  workspace: Workspace,
  options: Omit<PaddockMcpServerOptions, "root" | "roots"> = {},
): ToolRegistry {
  return registryOf(workspace, options, new RootSet(nameRoots([workspace])));
}

// createMcpRegistry over the default root of `roots`: `read_multiple_files` and
// `list_allowed_directories` see every root served.
function registryOf(
  workspace: Workspace,
  options: Omit<PaddockMcpServerOptions, "root" | "roots">,
  roots: RootSet,
): ToolRegistry {
  const extra = options.tools ?? [];
  // The reference filesystem server's batch read, composed from read_file; each path routed to its root.
  const reads = new Map(roots.roots.map((root) => [root, createReadTool(root.workspace)]));
  const readMany = createReadMultipleFilesTool(workspace, {}, async (path, signal) => {
    const routed = roots.route(path);
    const read = await reads.get(routed.root)!.execute({ path: routed.path }, { signal });
    return { ...read, path: roots.display(routed.root, read.path) };
  });
  const listRoots = createListAllowedDirectoriesTool(roots);
  if (options.readOnly === true) {
    const readOnly = createReadOnlyTools(workspace, { nodeProcess: false });
    return new ToolRegistry([...readOnly, readMany, listRoots, ...extra.filter((tool) => tool.readOnly)]);
  }
  const shell = shellToolOptions(options.shell ?? SHELL_OFF);
  const sandbox = options.sandbox;
  // Bun has no permission model: in the sandbox, the sandbox alone confines the script.
  const timeout = options.nodeProcessTimeoutMs === undefined ? {} : { timeoutMs: options.nodeProcessTimeoutMs };
  const nodeProcess = sandbox === undefined ? timeout : {
    ...timeout,
    sandbox,
    permissions: workspace.host.runtime === "bun" ? "inherit" as const : "workspace" as const,
  };
  const tools: AnyTool[] = createCodingTools(workspace, {
    nodeProcess: options.nodeProcess === false ? false : nodeProcess,
    ...(shell === undefined || sandbox !== undefined ? {} : { shell }),
    protectedPaths: shell?.allow !== undefined,
  });
  if (shell !== undefined && sandbox !== undefined) {
    // With an allow list, the files that decide what allowed commands run are read-only inside too.
    const protectedPaths = shell.allow === undefined ? [] : DEFAULT_PROTECTED_PATHS;
    tools.push(createShellTool(new SandboxShell(sandbox, { cwd: workspace.root, protectedPaths }), shell));
  }
  return new ToolRegistry([...tools, readMany, listRoots, ...extra]);
}

/**
 * Creates the Paddock MCP server: every tool of the registry with its JSON
 * Schema; each call runs through {@link executeToolCall}, and its result is a
 * text content holding the same JSON (plus `structuredContent`), with
 * `isError` set for an error. Calls beyond `maxConcurrentCalls` wait their
 * turn. A tool that needs approval is put to the person through MCP
 * elicitation (as `executeToolCall`'s `approve`); when the client cannot ask,
 * the call is refused with `APPROVAL_UNAVAILABLE`.
 *
 * @param options The root and what to offer.
 * @returns The server (not yet connected), its registry and workspace.
 * @throws {WorkspaceError} `WORKSPACE_ROOT_INVALID` or `NOT_FOUND` when the root cannot be opened.
 *
 * @example Serving over stdio
 * ```ts
 * import process from "node:process";
 * import { BoundedStdioTransport, createPaddockMcpServer } from "@paddock/tools/mcp";
 * const { server } = await createPaddockMcpServer({ root: "./project", readOnly: true });
 * await server.connect(new BoundedStdioTransport(process.stdin, process.stdout));
 * ```
 */
export async function createPaddockMcpServer(options: PaddockMcpServerOptions): Promise<PaddockMcpServer> {
  const open = (root: Workspace | string) => root instanceof Workspace ? root : openWorkspace(root);
  const workspace = await open(options.root);
  const rootSet = new RootSet(nameRoots([workspace, ...(await Promise.all((options.roots ?? []).map(open)))]));
  const registry = registryOf(workspace, options, rootSet);
  // Other roots: the file tools only (processes run in the default root).
  const registries = new Map<McpRoot, ToolRegistry>(rootSet.roots.map((root) => [
    root,
    root.isDefault ? registry : new ToolRegistry(
      createCodingTools(root.workspace, { nodeProcess: false }).filter((tool) =>
        options.readOnly !== true || tool.readOnly
      ),
    ),
  ]));
  const limiter = createCallLimiter(options.maxConcurrentCalls ?? MCP_MAX_CONCURRENT_CALLS);
  const flow = backpressure(limiter, options.maxQueuedCalls ?? MCP_MAX_QUEUED_CALLS, options.flowControl);
  const server = new Server(
    { name: "paddock", version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        (rootSet.roots.length === 1
          ? "Coding tools confined to one workspace folder. Paths are relative to the workspace root; "
          : `Coding tools confined to ${rootSet.roots.length} folders. Paths are relative to the first ('${rootSet.defaultRoot.name}'); ` +
            "name another as NAME:path (list_allowed_directories lists them); ") +
        'errors are JSON {"error": {"code", "message", "hint"?}}.',
    },
  );
  const clientRoots = followClientRoots(server, rootSet);

  const tools: ListedTool[] = registry.list().map((tool) => {
    const outputSchema = outputSchemaOf(tool.name);
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as ListedTool["inputSchema"],
      ...(outputSchema === undefined ? {} : { outputSchema }),
      annotations: toolAnnotations(tool.name, tool.readOnly, tool.openWorld),
    };
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResultJson> => {
    const call = { id: String(extra.requestId), name: request.params.name, arguments: request.params.arguments ?? {} };
    const running = limiter.run(async () => {
      throwIfAborted(extra.signal);
      // The client's roots, when it has some, are known before any call runs.
      await clientRoots.settled();
      let routed;
      try {
        routed = routeCall(rootSet, call.name, call.arguments);
      } catch (error) {
        return errorResult(call, error);
      }
      const result = await executeToolCall(
        registries.get(routed.root)!,
        { ...call, arguments: routed.arguments },
        extra.signal,
        {
          approve: (request) => askPerson(server, request, extra.signal, flow),
          onProgress: progressReporter(
            (request.params as { _meta?: { progressToken?: string | number } })._meta?.progressToken,
            extra.sendNotification,
          ),
        },
      );
      if (routed.root.isDefault || result.isError) return result;
      return {
        ...result,
        content: JSON.stringify(prefixResultPaths(rootSet, routed.root, JSON.parse(result.content))),
      };
    });
    flow.update();
    try {
      return toCallToolResult(withRelativePathHint(await running, call.arguments, rootSet.roots));
    } finally {
      flow.update();
    }
  });

  return { server, registry, workspace, roots: rootSet.roots };
}

/**
 * MCP progress for a call whose client sent a `progressToken`: each report
 * of the tool becomes a `notifications/progress` (a failed send is dropped:
 * progress is advice). Without a token, `undefined` (the tool reports nothing).
 */
function progressReporter(
  token: string | number | undefined,
  // The SDK's `sendNotification`, seen only as far as a progress notification needs.
  send: (notification: { method: "notifications/progress"; params: ProgressParams }) => Promise<void>,
): ((progress: ToolProgress) => void) | undefined {
  if (token === undefined) return undefined;
  return (progress) => {
    const params: ProgressParams = { progressToken: token, progress: progress.progress };
    if (progress.total !== undefined) params.total = progress.total;
    if (progress.message !== undefined) params.message = progress.message;
    send({ method: "notifications/progress", params }).catch(() => {});
  };
}

/** The params of MCP's `notifications/progress`. */
interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * The reply to a message too large to read: a `tools/call` gets an error
 * result (`TOOL_ARGUMENTS_INVALID` / `CONTENT_TOO_LARGE`, as an oversized
 * `write_file` content would), any other request a JSON-RPC error, a
 * notification nothing.
 *
 * @param line What was recovered from the message.
 * @param maxMessageBytes The limit it passed.
 * @returns The reply, or `undefined`.
 */
export function oversizedMessageReply(line: OversizedLine, maxMessageBytes: number): JsonRpcMessage | undefined {
  if (line.id === undefined) return undefined;
  if (line.method === "tools/call") {
    const error = new WorkspaceError(
      "CONTENT_TOO_LARGE",
      `The call has ${line.bytes} bytes, more than the ${maxMessageBytes} a message may have`,
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

/**
 * Puts a call that needs approval to the person through MCP elicitation (a
 * form with one `approve` boolean). `executeToolCall` asks only after the
 * arguments have been validated, so nobody is asked about an invalid call.
 *
 * @returns Whether the person approved.
 * @throws {WorkspaceError} `APPROVAL_UNAVAILABLE` when the client cannot elicit;
 *   `TOOL_CALL_DENIED` when the request got no answer.
 */
async function askPerson(
  server: Server,
  request: ApprovalRequest,
  signal: AbortSignal,
  flow: Backpressure,
): Promise<boolean> {
  if (server.getClientCapabilities()?.elicitation === undefined) {
    throw new WorkspaceError(
      "APPROVAL_UNAVAILABLE",
      `Cannot run '${request.toolName}': it needs approval and the client cannot ask`,
      { hint: "use a client that supports MCP elicitation, or start the server with --shell allow:PATTERN" },
    );
  }
  const summary = approvalSummary(request.arguments);
  // The answer comes in on the input: it must not be paused meanwhile.
  flow.elicitations++;
  flow.update();
  try {
    const answer = await server.elicitInput({
      mode: "form",
      message: `Allow ${request.toolName} ${summary}?`,
      requestedSchema: {
        type: "object",
        properties: { approve: { type: "boolean", title: "Allow this call", default: false } },
        required: ["approve"],
      },
    }, { signal });
    return answer.action === "accept" && answer.content?.approve === true;
  } catch (error) {
    throwIfAborted(signal);
    throw new WorkspaceError(
      "TOOL_CALL_DENIED",
      `Cannot run '${request.toolName}': no answer to the approval request`,
      {
        cause: error,
      },
    );
  } finally {
    flow.elicitations--;
    flow.update();
  }
}

/** The server's side of flow control: when to pause and resume the input. */
interface Backpressure {
  /** Elicitations waiting for their answer (the input must stay open for them). */
  elicitations: number;
  /** Pauses or resumes the input for the current queue. */
  update(): void;
}

/**
 * Pauses the input when `maxQueued` calls wait for a slot and resumes it
 * when half of them have started (or whenever an elicitation waits for its
 * answer), so memory holds at most the running and `maxQueued` waiting calls.
 */
function backpressure(
  limiter: { readonly waiting: number },
  maxQueued: number,
  control: FlowControl | undefined,
): Backpressure {
  let paused = false;
  const state: Backpressure = {
    elicitations: 0,
    update: () => {
      if (control === undefined) return;
      if (!paused && limiter.waiting >= maxQueued && state.elicitations === 0) {
        paused = true;
        control.pause();
      } else if (paused && (limiter.waiting <= maxQueued / 2 || state.elicitations > 0)) {
        paused = false;
        control.resume();
      }
    },
  };
  return state;
}
