// Hostile calls to the background-process tools and to shell / node_process's
// `background` argument: each row is a tool, its arguments and the code the
// call must fail with. Replayed on every host by background_processes.test.ts;
// none may start a process.
import { PROCESS_INPUT_MAX_BYTES, PROCESS_OUTPUT_MAX_WAIT_MS } from "../../src/core/limits.ts";

export const BACKGROUND_HOSTILE_CALLS: ReadonlyArray<readonly [tool: string, args: unknown, code: string]> = [
  ["process_output", {}, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: 5 }, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: "p1", wait_ms: -1 }, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: "p1", wait_ms: 1.5 }, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: "p1", wait_ms: PROCESS_OUTPUT_MAX_WAIT_MS + 1 }, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: "p1", wait_ms: "10" }, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: "p1", extra: true }, "TOOL_ARGUMENTS_INVALID"],
  ["process_output", { process_id: "p999" }, "PROCESS_NOT_FOUND"],
  ["process_output", { process_id: "x".repeat(1_000_000) }, "PROCESS_NOT_FOUND"],
  ["process_output", { process_id: "__proto__" }, "PROCESS_NOT_FOUND"],
  ["process_input", { process_id: "p1" }, "TOOL_ARGUMENTS_INVALID"],
  ["process_input", { process_id: "p1", text: 5 }, "TOOL_ARGUMENTS_INVALID"],
  ["process_input", { process_id: "p1", text: ["a"] }, "TOOL_ARGUMENTS_INVALID"],
  ["process_input", { process_id: "p1", text: "x".repeat(PROCESS_INPUT_MAX_BYTES + 1) }, "TOOL_ARGUMENTS_INVALID"],
  ["process_input", { process_id: "p999", text: "x" }, "PROCESS_NOT_FOUND"],
  ["process_kill", { process_id: null }, "TOOL_ARGUMENTS_INVALID"],
  ["process_kill", { process_id: "p999" }, "PROCESS_NOT_FOUND"],
  ["process_list", { all: true }, "TOOL_ARGUMENTS_INVALID"],
  ["shell", { command: "sleep 1", background: "yes" }, "TOOL_ARGUMENTS_INVALID"],
  ["node_process", { source: "", background: 1 }, "TOOL_ARGUMENTS_INVALID"],
];
