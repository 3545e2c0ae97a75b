/**
 * Paddock: coding tools for AI agents, fenced into one workspace folder.
 *
 * The root entry holds what an application needs: the workspace, the tools
 * with their options and outputs, the registry and `executeToolCall`, the
 * agent loop, the errors and their codes, and the limits. The host seam is in
 * `@paddock/tools/host`; the SDK adapters are in `@paddock/tools/openai`,
 * `@paddock/tools/anthropic` and `@paddock/tools/ai-sdk`.
 *
 * @example Quick start
 * ```ts
 * import { createCodingTools, executeToolCall, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const result = await executeToolCall(registry, {
 *   id: "call-1",
 *   name: "write_file",
 *   arguments: { path: "hello.txt", content: "hi\n" },
 * });
 * console.log(result.isError, JSON.parse(result.content));
 * ```
 *
 * @module
 */
import { registerDefaultHost } from "./src/core/fs/default_host.ts";
import { registerCallScope } from "./src/core/fs/call_scope.ts";
import { createAutoHost } from "./src/hosts/auto.ts";
import { asyncCallScope } from "./src/hosts/async_call_scope.ts";

registerDefaultHost(createAutoHost);
registerCallScope(asyncCallScope);

// The workspace.
export { openWorkspace } from "./src/core/fs/open_workspace.ts";
export type { WorkspaceOptions } from "./src/core/fs/open_workspace.ts";
export { Workspace } from "./src/core/fs/workspace.ts";
export { declareProtectedPaths } from "./src/core/fs/change_policy.ts";
export type { ProtectionOwner } from "./src/core/fs/change_policy.ts";
export { DEFAULT_PROTECTED_PATHS } from "./src/core/fs/protected_paths.ts";
export type { Confinement, Folder, FolderLookup } from "./src/core/fs/workspace.ts";

// Errors and limits.
export { isAbortError, isWorkspaceError, WorkspaceError } from "./src/core/errors.ts";
export type { ErrorCode, WorkspaceErrorOptions } from "./src/core/errors.ts";
export { LIMITS } from "./src/core/limits.ts";

// Tools.
export { defineTool } from "./src/tools/define_tool.ts";
export { DeferredWorkspace } from "./src/tools/workspace_source.ts";
export type { AnyTool, BaseToolOptions, JsonSchema, Tool, ToolExecuteOptions, ToolProgress } from "./src/tools/tool.ts";
export type { ToolArgumentsSchema, ToolDefinition } from "./src/tools/define_tool.ts";
export type { DeferredWorkspaceOptions, WorkspaceSource } from "./src/tools/workspace_source.ts";
export { createCodingTools, createReadOnlyTools } from "./src/tools/coding_tools.ts";
export type { CodingToolsOptions } from "./src/tools/coding_tools.ts";
export { createReadTool } from "./src/tools/read_file.ts";
export type { ReadFileArguments, ReadFileInput, ReadFileOutput, ReadToolOptions } from "./src/tools/read_file.ts";
export type { TextEncodingName } from "./src/core/text/text_form.ts";
export type { ChangedLines } from "./src/core/fs/region_guard.ts";
export { createWriteTool } from "./src/tools/write_file.ts";
export type { WriteFileArguments, WriteFileInput, WriteFileOutput, WriteToolOptions } from "./src/tools/write_file.ts";
export { createEditTool } from "./src/tools/edit_file.ts";
export type {
  EditFileArguments,
  EditFileInput,
  EditFileOutput,
  EditOperation,
  EditToolOptions,
} from "./src/tools/edit_file.ts";
export { createApplyPatchTool } from "./src/tools/apply_patch.ts";
export type {
  ApplyPatchArguments,
  ApplyPatchInput,
  ApplyPatchOutput,
  ApplyPatchToolOptions,
  PatchedFile,
} from "./src/tools/apply_patch.ts";
export type { PreparedPatchOperation } from "./src/tools/_patch_plan.ts";
export { createListDirectoryTool } from "./src/tools/list_directory.ts";
export type {
  ListDirectoryArguments,
  ListDirectoryInput,
  ListDirectoryOutput,
  ListDirectoryToolOptions,
  ListedEntry,
} from "./src/tools/list_directory.ts";
export type { ReportedKind } from "./src/core/fs/reported_kind.ts";
export { createReadMediaFileTool } from "./src/tools/read_media_file.ts";
export type {
  ReadMediaFileArguments,
  ReadMediaFileInput,
  ReadMediaFileOutput,
  ReadMediaFileToolOptions,
} from "./src/tools/read_media_file.ts";
export { createDirectoryTreeTool } from "./src/tools/directory_tree.ts";
export type {
  DirectoryTreeArguments,
  DirectoryTreeInput,
  DirectoryTreeOutput,
  DirectoryTreeToolOptions,
  TreeNode,
} from "./src/tools/directory_tree.ts";
export { createFileInfoTool } from "./src/tools/get_file_info.ts";
export type {
  FileInfoArguments,
  FileInfoInput,
  FileInfoOutput,
  FileInfoToolOptions,
} from "./src/tools/get_file_info.ts";
export { createFindFilesTool } from "./src/tools/find_files.ts";
export type {
  FindFilesArguments,
  FindFilesInput,
  FindFilesOutput,
  FindFilesToolOptions,
} from "./src/tools/find_files.ts";
export { createGrepTool } from "./src/tools/grep.ts";
export type {
  GrepArguments,
  GrepContentOutput,
  GrepCountOutput,
  GrepFilesOutput,
  GrepInput,
  GrepMatch,
  GrepOutput,
  GrepOutputBase,
  GrepOutputMode,
  GrepSkipped,
  GrepToolOptions,
} from "./src/tools/grep.ts";
export type { GlobMatcher } from "./src/core/search/compile_glob.ts";
export type { BytePrefilter, LineMatcher } from "./src/core/search/line_matcher.ts";
export type { FoldedNeedle, Needle } from "./src/core/search/byte_search.ts";
export type { LineMatch } from "./src/core/search/search_text.ts";
export { createDeleteTool } from "./src/tools/delete_path.ts";
export type {
  DeletePathArguments,
  DeletePathInput,
  DeletePathOutput,
  DeleteToolOptions,
} from "./src/tools/delete_path.ts";
export { createMoveTool } from "./src/tools/move_path.ts";
export type { MovePathArguments, MovePathInput, MovePathOutput, MoveToolOptions } from "./src/tools/move_path.ts";
export { createDirectoryTool } from "./src/tools/create_directory.ts";
export type {
  CreateDirectoryArguments,
  CreateDirectoryInput,
  CreateDirectoryOutput,
  CreateDirectoryToolOptions,
} from "./src/tools/create_directory.ts";
export { createUndoLastChangeTool } from "./src/tools/undo_last_change.ts";
export type {
  UndoLastChangeArguments,
  UndoLastChangeInput,
  UndoLastChangeOutput,
  UndoLastChangeToolOptions,
} from "./src/tools/undo_last_change.ts";
export { type Checkpoint, checkpoint } from "./src/core/fs/checkpoint.ts";
export { restore } from "./src/tools/restore_checkpoint.ts";
export type { RestoredChange, RestoreOptions, RestoreResult } from "./src/tools/restore_checkpoint.ts";
export { configureCheckpoints } from "./src/core/fs/change_journal.ts";
export type { JournalLimits } from "./src/core/fs/change_journal.ts";
export { createNodeProcessTool } from "./src/tools/node_process.ts";
export type {
  NodeProcessArguments,
  NodeProcessInput,
  NodeProcessOutput,
  NodeProcessToolOptions,
} from "./src/tools/node_process.ts";
export { createShellTool } from "./src/tools/shell.ts";
export type {
  ShellApproval,
  ShellArguments,
  ShellInput,
  ShellOutput,
  ShellSource,
  ShellToolOptions,
} from "./src/tools/shell.ts";
export { createProcessOutputTool } from "./src/tools/process_output.ts";
export type {
  KeptOutputPage,
  ProcessOutputArguments,
  ProcessOutputInput,
  ProcessOutputOutput,
  ProcessOutputToolOptions,
} from "./src/tools/process_output.ts";
export { createProcessInputTool } from "./src/tools/process_input.ts";
export type {
  ProcessInputArguments,
  ProcessInputInput,
  ProcessInputOutput,
  ProcessInputToolOptions,
} from "./src/tools/process_input.ts";
export { createProcessKillTool } from "./src/tools/process_kill.ts";
export type {
  ProcessKillArguments,
  ProcessKillInput,
  ProcessKillOutput,
  ProcessKillToolOptions,
} from "./src/tools/process_kill.ts";
export { createProcessListTool } from "./src/tools/process_list.ts";
export type { ProcessListArguments, ProcessListOutput, ProcessListToolOptions } from "./src/tools/process_list.ts";
export { createProcessTools } from "./src/tools/process_tools.ts";
export type { ProcessToolsOptions } from "./src/tools/process_tools.ts";
export type { ProcessToolOptions } from "./src/tools/_process_table.ts";
export type { BackgroundStarted } from "./src/tools/start_in_background.ts";
export type { BackgroundProcesses } from "./src/core/process/background_processes.ts";
export type {
  BackgroundControl,
  BackgroundExit,
  BackgroundLauncher,
  BackgroundOutput,
  BackgroundProcess,
  BackgroundProcessInfo,
  BackgroundProcessSpec,
  BackgroundSink,
} from "./src/core/process/background_process.ts";
export type { StdinQueueLimits, StdinWritten } from "./src/core/process/stdin_queue.ts";
export type { KeptExit, KeptOutput } from "./src/core/process/kept_output.ts";
export type { KeptLine, KeptPage, KeptStream } from "./src/core/process/kept_stream.ts";
export type { KeptOutputFields } from "./src/core/process/kept_result.ts";
export { evaluateShellPolicy } from "./src/core/process/shell_policy.ts";
export type { ShellPattern, ShellPolicy, ShellPolicyVerdict } from "./src/core/process/shell_policy.ts";

// The registry and the call layer.
export { ToolRegistry } from "./src/registry/tool_registry.ts";
export type { ToolDefinitionJson } from "./src/registry/tool_registry.ts";
export { errorResult, executeToolCall, toErrorBody } from "./src/registry/execute_tool_call.ts";
export type {
  ApprovalRequest,
  ExecuteToolCallOptions,
  ToolCall,
  ToolCallResult,
  ToolErrorBody,
} from "./src/registry/execute_tool_call.ts";
export type {
  BeforeToolCallContext,
  BeforeToolCallDecision,
  BeforeToolCallHook,
  BeforeToolCallHooks,
} from "./src/registry/before_tool_call.ts";
export { denyShellByDefault } from "./src/registry/deny_shell_by_default.ts";
export type { DenyShellByDefaultOptions } from "./src/registry/deny_shell_by_default.ts";

// The agent loop.
export { AgentExecutor } from "./src/agent/agent_executor.ts";
export type { AgentDefinition } from "./src/agent/agent_definition.ts";
export type { AgentExecuteOptions, AgentResumeOptions, AgentRunContext } from "./src/agent/agent_run_options.ts";
export type { AgentRunResult } from "./src/agent/agent_run_result.ts";
export type { AgentRunState, PausedToolCall } from "./src/agent/agent_run_state.ts";
export type { ApprovalDecision } from "./src/agent/approval_decision.ts";
export { createAgent } from "./src/agent/create_agent.ts";
export type { Agent, AgentReply, AgentSendOptions, CreateAgentOptions } from "./src/agent/create_agent.ts";
export type { AgentMessage, AssistantMessage, ToolResultMessage, UserMessage } from "./src/agent/agent_message.ts";
export type { ModelProvider, ModelRequest, ModelResponse, ModelToolCall } from "./src/agent/model_provider.ts";
export type { ApprovalRule, ApprovalStore, RememberedApproval } from "./src/agent/approval_store.ts";
export { InMemoryApprovalStore } from "./src/agent/in_memory_approval_store.ts";
export { ApprovalRequiredError } from "./src/agent/approval_required_error.ts";

// The seed documents' names ------------------------------------------------
// What the three seed documents import from the package root, over the core
// above (README: "Coming from the seed documents"). Where a name collided,
// the seed's meaning won: `FsProvider` is the seed's small provider interface
// (the host seam is `Host`), and `normalizeWorkspacePath` also takes the
// seed's `(path, "posix")` form, returning a string.
export { normalizeWorkspacePath } from "./src/seed/normalize_workspace_path.ts";
export type { PathFlavor } from "./src/seed/normalize_workspace_path.ts";
export { NodeWorkspace } from "./src/seed/node_workspace.ts";
export type { NodeWorkspaceOptions } from "./src/seed/node_workspace.ts";
export type { FlexibleShellProvider } from "./src/core/process/host_shell_provider.ts";
export type {
  ShellExecOptions,
  ShellExecOutcome,
  ShellExecRequest,
  ShellExecResult,
  ShellOutputSink,
  ShellProvider,
} from "./src/shell_provider.ts";
export { createFsTools } from "./src/seed/create_fs_tools.ts";
export type { FsToolsOptions } from "./src/seed/create_fs_tools.ts";
export type { FsDirEntry, FsEntryType, FsProvider, FsRmOptions, FsStat } from "./src/seed/fs_provider.ts";
export type { CourseToolCall } from "./src/seed/course_tool_call.ts";
export { MemoryWorkspace } from "./src/testing/memory_workspace.ts";
export type { ExecRecord, ExecReply, ExecScript, MemoryWorkspaceOptions } from "./src/testing/memory_workspace.ts";
export { SandboxShell } from "./src/sandbox/sandbox_shell.ts";
export type { SandboxShellOptions } from "./src/sandbox/sandbox_shell.ts";
// The container sandbox; loads its module (node:http) on first use, not at import.
export { SubprocessSandbox } from "./src/seed/subprocess_sandbox.ts";
export type { SubprocessSandboxOptions } from "./src/seed/subprocess_sandbox.ts";
// Loads node:http / node:net on first call, not at import.
export { createCredentialBroker } from "./src/seed/create_credential_broker.ts";
export type { CredentialBroker, CredentialBrokerOptions } from "./src/sandbox/credential_broker.ts";
export { createWorkspaceTools } from "./src/seed/create_workspace_tools.ts";
export type { WorkspaceTool, WorkspaceToolResult, WorkspaceToolSpec } from "./src/seed/create_workspace_tools.ts";
export { denyBashByDefault } from "./src/seed/deny_bash_by_default.ts";
export type { DenyBashByDefaultOptions } from "./src/seed/deny_bash_by_default.ts";
export {
  BASH_MAX_BUFFER_BYTES,
  BASH_TIMEOUT_MS,
  MAX_READ_CHARS,
  READ_KEEP_CHARS,
  WORKSPACE_TOOLS_MAX_FILE_BYTES,
} from "./src/seed/workspace_tools_limits.ts";
// ---------------------------------------------------------------------------
