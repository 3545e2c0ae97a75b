import { Server } from "@modelcontextprotocol/sdk/server";
import { throwIfAborted } from "../core/errors.ts";
import { MCP_MAX_CONCURRENT_CALLS, MCP_MAX_CONTROL_CALLS, MCP_MAX_QUEUED_CALLS } from "../core/limits.ts";
import { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import { errorResult, executeToolCall } from "../registry/execute_tool_call.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import { createCodingTools } from "../tools/coding_tools.ts";
import { protectedPathsInForce } from "../core/fs/change_policy.ts";
import { segmentsBelow } from "../core/path/host_path.ts";
import { VERSION } from "../version.ts";
import { withRelativePathHint } from "./relative_path_hint.ts";
import { outputSchemaOf } from "./output_schemas.ts";
import { type McpRoot, nameRoots, RootSet } from "./root_set.ts";
import { followClientRoots } from "./follow_client_roots.ts";
import { toCallToolResult } from "./call_tool_result.ts";
import { prefixErrorPaths, prefixResultPaths, routeCall } from "./route_call.ts";
import { toolAnnotations } from "./tool_annotations.ts";
import { createCallLimiter } from "./call_limiter.ts";
import { askPerson } from "./ask_person.ts";
import { backpressure } from "./backpressure.ts";
import { registryOf } from "./create_mcp_registry.ts";
import { progressReporter } from "./progress_reporter.ts";
import type { PaddockMcpServer, PaddockMcpServerOptions } from "./server_types.ts";
import {
  CallToolRequestSchema,
  type CallToolResultJson,
  InitializedNotificationSchema,
  type ListedTool,
  ListToolsRequestSchema,
} from "./protocol_types.ts";

/**
 * Creates the Paddock MCP server: every tool of the registry with its JSON
 * Schema; each call runs through {@link executeToolCall}, and its result is a
 * text content holding the same JSON (plus `structuredContent`), with
 * `isError` set for an error. Calls beyond `maxConcurrentCalls` wait their
 * turn; `process_kill` and `process_list` run in slots of their own
 * ({@link MCP_MAX_CONTROL_CALLS}). A tool that needs approval is put to the person through MCP
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
  // grep's warm-up begins once the client's handshake is done: its first pass would share this thread
  // with the answer to `initialize`.
  let handshakeDone = () => {};
  const handshake = new Promise<void>((resolve) => handshakeDone = resolve);
  const registry = registryOf(workspace, options, rootSet, handshake);
  // Other roots: the file tools only (processes run in the default root). A root nested with the default one
  // (either way) protects what the default root protects, on all its paths: a file protected in one root is
  // protected however it is reached, and what a protected link there leads to is found by its own walk.
  const inForce = await protectedPathsInForce(workspace);
  const nestedWithDefault = (other: Workspace) =>
    segmentsBelow(other.host.platform, workspace.root, other.root) !== null ||
    segmentsBelow(other.host.platform, other.root, workspace.root) !== null;
  const registries = new Map<McpRoot, ToolRegistry>(rootSet.roots.map((root) => [
    root,
    root.isDefault ? registry : new ToolRegistry(
      createCodingTools(root.workspace, {
        nodeProcess: false,
        staleWriteGuard: options.staleWriteGuard ?? true,
        ...(inForce.length > 0 && nestedWithDefault(root.workspace) ? { protectedPaths: [...inForce] } : {}),
      })
        .filter((
          tool,
        ) => options.readOnly !== true || tool.readOnly),
    ),
  ]));
  const limiter = createCallLimiter(options.maxConcurrentCalls ?? MCP_MAX_CONCURRENT_CALLS);
  // process_kill and process_list have slots of their own: a process can always be listed and ended, however
  // many calls wait on it in the others.
  const controlLimiter = createCallLimiter(MCP_MAX_CONTROL_CALLS);
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
  // The server's own start after the handshake (the client's roots, then grep's warm-up) is this handler's, in
  // place of the SDK's, which only calls `oninitialized`: that stays the user's, and still runs.
  server.setNotificationHandler(InitializedNotificationSchema, () => {
    clientRoots.refresh();
    handshakeDone();
    server.oninitialized?.();
  });

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
    const lane = CONTROL_TOOLS.has(call.name) ? controlLimiter : limiter;
    const running = lane.run(async () => {
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
      if (routed.root.isDefault) return result;
      const body = JSON.parse(result.content);
      return {
        ...result,
        content: JSON.stringify(
          result.isError ? prefixErrorPaths(rootSet, routed, body) : prefixResultPaths(rootSet, routed.root, body),
        ),
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

// The calls that must always find a slot: they end or list what holds the others.
const CONTROL_TOOLS: ReadonlySet<string> = new Set(["process_kill", "process_list"]);
