/**
 * `@paddock/tools/extend`: the workspace's shared rules and state, for a tool
 * of your own (`defineTool`) that must keep them as the built-in tools do:
 * the change policy (protected paths), the stale-write guard's memory of what
 * was read, the table of background processes, and which error codes mean
 * bad arguments. An application that only uses the tools needs none of it.
 *
 * @example Refusing a change the workspace protects, as the built-in write tools do
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { assertChangeAllowed } from "@paddock/tools/extend";
 * const workspace = await openWorkspace("./project", { protectedPaths: [".git/"] });
 * await assertChangeAllowed(workspace, ["src", "a.ts"], { action: "write", display: "src/a.ts" });
 * ```
 *
 * @module
 */
export { assertChangeAllowed, protectedPathsInForce, protectionDeclared } from "./core/fs/change_policy.ts";
export type { ChangeCheckOptions, ProtectionOwner } from "./core/fs/change_policy.ts";
export { ReadTracker, readTrackerOf } from "./core/fs/read_tracker.ts";
export type { SeenLines, SeenVersion, ShownText } from "./core/fs/read_tracker.ts";
export { backgroundProcessesOf } from "./core/process/background_processes.ts";
export type { BackgroundProcesses } from "./core/process/background_processes.ts";
export { ARGUMENT_ERROR_CODES } from "./core/errors.ts";
