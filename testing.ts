/**
 * Test doubles for code built on Paddock: an in-memory host and workspace,
 * with scripted shell commands. Nothing here touches the disk or runs a
 * process, so it works the same on Node, Deno and Bun.
 *
 * @example A workspace in memory
 * ```ts
 * import { createCodingTools } from "@paddock/tools";
 * import { MemoryWorkspace } from "@paddock/tools/testing";
 * const ws = new MemoryWorkspace({ files: { "a.txt": "hi\n" }, exec: { "git status": "clean\n" } });
 * const tools = createCodingTools(ws);
 * ```
 *
 * @module
 */
export { createMemoryHost, MEMORY_ENVIRONMENT, MEMORY_EXEC_PATH, MEMORY_HOST_DEV } from "./src/hosts/memory.ts";
export type { MemoryHost, MemoryHostOptions } from "./src/hosts/memory.ts";
export { MEMORY_WORKSPACE_ROOT, MemoryWorkspace } from "./src/testing/memory_workspace.ts";
export type { ExecRecord, ExecReply, ExecScript, MemoryWorkspaceOptions } from "./src/testing/memory_workspace.ts";
export { type MockModel, mockModel, type MockModelStep, type RecordedModelRequest } from "./src/testing/mock_model.ts";
