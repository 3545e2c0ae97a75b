// Locks the public API: the exported names of every entry point in deno.json
// (the same map as package.json's exports). A change here is a change to what
// users can import — update the list and the README's "Public API" section
// together.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const repo = path.resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const entries: Record<string, string> = JSON.parse(fs.readFileSync(path.join(repo, "deno.json"), "utf8")).exports;

/** Per entry: the names that exist at run time, and the names that are only types. */
const API: Record<string, { values: string[]; types: string[] }> = {
  ".": {
    values: [
      "ARGUMENT_ERROR_CODES",
      "AgentExecutor",
      "ApprovalRequiredError",
      "InMemoryApprovalStore",
      "LIMITS",
      "LazyWorkspace",
      "ToolRegistry",
      "Workspace",
      "WorkspaceError",
      "createAgent",
      "createCodingTools",
      "createDeleteTool",
      "createDirectoryTool",
      "createEditTool",
      "createFindFilesTool",
      "createGrepTool",
      "createListDirectoryTool",
      "createMoveTool",
      "createNodeProcessTool",
      "createReadOnlyTools",
      "createReadTool",
      "createShellTool",
      "createWriteTool",
      "defineTool",
      "denyShellByDefault",
      "errorResult",
      "evaluateShellPolicy",
      "executeToolCall",
      "isAbortError",
      "isWorkspaceError",
      "normalizeWorkspacePath",
      "openWorkspace",
      "toErrorBody",
    ],
    types: [
      "Agent",
      "AgentDefinition",
      "AgentExecuteOptions",
      "AgentMessage",
      "AgentReply",
      "AgentResumeOptions",
      "AgentRunContext",
      "AgentRunResult",
      "AgentRunState",
      "AgentSendOptions",
      "AnyTool",
      "ApprovalDecision",
      "ApprovalRequest",
      "ApprovalRule",
      "ApprovalStore",
      "AssistantMessage",
      "BaseToolOptions",
      "BeforeToolCallContext",
      "BeforeToolCallDecision",
      "BeforeToolCallHook",
      "BeforeToolCallHooks",
      "CodingToolsOptions",
      "CreateAgentOptions",
      "CreateDirectoryInput",
      "CreateDirectoryOutput",
      "CreateDirectoryToolOptions",
      "DeletePathInput",
      "DeletePathOutput",
      "DeleteToolOptions",
      "DenyShellByDefaultOptions",
      "EditFileInput",
      "EditFileOutput",
      "EditOperation",
      "EditToolOptions",
      "ErrorCode",
      "ExecuteToolCallOptions",
      "FindFilesInput",
      "FindFilesOutput",
      "FindFilesToolOptions",
      "GlobMatcher",
      "GrepContentOutput",
      "GrepCountOutput",
      "GrepFilesOutput",
      "GrepInput",
      "GrepMatch",
      "GrepOutput",
      "GrepOutputBase",
      "GrepOutputMode",
      "GrepSkipped",
      "GrepToolOptions",
      "JsonSchema",
      "LineMatcher",
      "ListDirectoryInput",
      "ListDirectoryOutput",
      "ListDirectoryToolOptions",
      "ListedEntry",
      "ModelProvider",
      "ModelRequest",
      "ModelResponse",
      "ModelToolCall",
      "MovePathInput",
      "MovePathOutput",
      "MoveToolOptions",
      "NodeProcessInput",
      "NodeProcessOutput",
      "NodeProcessToolOptions",
      "PausedToolCall",
      "ReadFileInput",
      "ReadFileOutput",
      "ReadToolOptions",
      "RememberedApproval",
      "ReportedKind",
      "ShellApproval",
      "ShellInput",
      "ShellOutput",
      "ShellPattern",
      "ShellPolicy",
      "ShellPolicyVerdict",
      "ShellSource",
      "ShellToolOptions",
      "Tool",
      "ToolArgumentsSchema",
      "ToolCall",
      "ToolCallResult",
      "ToolDefinition",
      "ToolDefinitionJson",
      "ToolErrorBody",
      "ToolExecuteOptions",
      "ToolResultMessage",
      "UserMessage",
      "WorkspaceErrorOptions",
      "WorkspaceOptions",
      "WorkspaceSource",
      "WriteFileInput",
      "WriteFileOutput",
      "WriteToolOptions",
    ],
  },
  "./host": {
    values: [
      "HostError",
      "TEMP_FILE_PREFIX",
      "atomicWrite",
      "createHostShellProvider",
      "isHostError",
      "isShellProvider",
      "registerDefaultHost",
    ],
    types: [
      "AtomicWriteOptions",
      "ByteReader",
      "EntryKind",
      "ExitStatus",
      "FsProvider",
      "Host",
      "HostChild",
      "HostDirEntry",
      "HostErrorCode",
      "HostFile",
      "HostShellProviderOptions",
      "HostStat",
      "Identity",
      "OpenOptions",
      "ResolveOptions",
      "Resolved",
      "ScriptLaunch",
      "ScriptLaunchRequest",
      "ShellExecRequest",
      "ShellExecResult",
      "ShellProvider",
      "SpawnRequest",
    ],
  },
  "./node": {
    values: [
      "createNodeHost",
    ],
    types: [],
  },
  "./deno": {
    values: [
      "createDenoHost",
    ],
    types: [],
  },
  "./testing": {
    values: [
      "MEMORY_ENVIRONMENT",
      "MEMORY_EXEC_PATH",
      "MEMORY_HOST_DEV",
      "MEMORY_WORKSPACE_ROOT",
      "MemoryWorkspace",
      "createMemoryHost",
      "mockModel",
    ],
    types: [
      "ExecReply",
      "ExecScript",
      "MemoryHost",
      "MemoryHostOptions",
      "MemoryWorkspaceOptions",
      "MockModel",
      "MockModelStep",
      "RecordedModelRequest",
    ],
  },
  "./sandbox": {
    values: [
      "BROKER_PATH_PREFIX",
      "BubblewrapSandbox",
      "EgressProxy",
      "HostPatternList",
      "SANDBOX_ETC_ENTRIES",
      "SANDBOX_HOME",
      "SANDBOX_PROXY_PORT",
      "SANDBOX_SYSTEM_PATHS",
      "SandboxShell",
      "createCredentialBroker",
      "createEgressProxy",
      "isPrivateAddress",
      "proxyEnvironment",
    ],
    types: [
      "BubblewrapSandboxOptions",
      "CredentialBroker",
      "CredentialBrokerOptions",
      "EgressEndpoint",
      "EgressLogEntry",
      "EgressProxyOptions",
      "HeaderRules",
      "HeaderValue",
      "ListenTarget",
      "ProxyListener",
      "Sandbox",
      "SandboxNetwork",
      "SandboxShellOptions",
      "SandboxWrapRequest",
      "SandboxedCommand",
    ],
  },
  "./openai": {
    values: [
      "fromOpenAIMessage",
      "fromOpenAIToolCall",
      "toOpenAIMessages",
      "toOpenAIToolMessage",
      "toOpenAITools",
    ],
    types: [
      "OpenAIChatMessage",
      "OpenAIFunctionToolCall",
      "OpenAITool",
      "OpenAIToolCall",
      "OpenAIToolMessage",
      "ToolSource",
    ],
  },
  "./anthropic": {
    values: [
      "fromAnthropicMessage",
      "fromAnthropicToolUse",
      "toAnthropicMessages",
      "toAnthropicToolResult",
      "toAnthropicTools",
    ],
    types: [
      "AnthropicInputSchema",
      "AnthropicMessage",
      "AnthropicTextBlock",
      "AnthropicTool",
      "AnthropicToolResultBlock",
      "AnthropicToolUseBlock",
      "ToolSource",
    ],
  },
  "./ai-sdk": {
    values: [
      "toAISDKTools",
    ],
    types: [
      "AISDKCallOptions",
      "AISDKJsonValue",
      "AISDKModelOutput",
      "AISDKSchema",
      "AISDKTool",
      "AISDKToolSet",
      "AISDKToolsOptions",
    ],
  },
  "./mcp": {
    values: [
      "BoundedStdioTransport",
      "SHELL_OFF",
      "VERSION",
      "createCallLimiter",
      "createMcpRegistry",
      "createPaddockMcpServer",
      "oversizedMessageReply",
      "serveStdio",
      "shellToolOptions",
      "toCallToolResult",
    ],
    types: [
      "BoundedStdioTransportOptions",
      "ByteSink",
      "ByteSource",
      "CallLimiter",
      "CallToolResultJson",
      "FlowControl",
      "JsonRpcMessage",
      "ListedTool",
      "McpServerConnection",
      "McpShellMode",
      "McpTransport",
      "OversizedLine",
      "PaddockMcpServer",
      "PaddockMcpServerOptions",
      "ScannedMessage",
    ],
  },
  "./cli": {
    values: [],
    types: [],
  },
};

describe("the public API", () => {
  test("the table covers exactly the entry points of deno.json", () => {
    expect(Object.keys(API).sort()).toEqual(Object.keys(entries).sort());
  });

  // cli.ts runs the command when imported; it exports nothing.
  test.each(Object.keys(entries).filter((entry) => entry !== "./cli"))(
    "%s exports exactly its locked values",
    async (entry) => {
      const module = await import(path.join(repo, entries[entry]));
      expect(Object.keys(module).sort()).toEqual(API[entry].values);
    },
  );

  test("each entry exports exactly its locked values and types (as the TypeScript compiler sees them)", () => {
    const files = Object.values(entries).map((file) => path.join(repo, file));
    const program = ts.createProgram(files, {
      allowImportingTsExtensions: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: ["node"],
    });
    const checker = program.getTypeChecker();
    for (const [entry, file] of Object.entries(entries)) {
      const source = program.getSourceFile(path.join(repo, file));
      const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
      const names = symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((s) => s.name).sort();
      expect(names, entry).toEqual([...API[entry].values, ...API[entry].types].sort());
    }
  }, 60_000);

  test.each([".", "./host", "./node", "./deno", "./openai", "./anthropic", "./ai-sdk"])(
    "the README names every value %s exports",
    (entry) => {
      const readme = fs.readFileSync(path.join(repo, "README.md"), "utf8");
      const missing = API[entry].values.filter((name) => !readme.includes(`\`${name}`));
      expect(missing).toEqual([]);
    },
  );
});
