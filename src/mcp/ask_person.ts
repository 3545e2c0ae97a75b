/**
 * The approval path of the MCP server: a call that needs approval put to the
 * person through MCP elicitation.
 *
 * @module
 */
import type { Server } from "@modelcontextprotocol/sdk/server";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import type { ApprovalRequest } from "../registry/execute_tool_call.ts";
import { approvalSummary } from "./approval_summary.ts";
import type { Backpressure } from "./backpressure.ts";

/**
 * Puts a call that needs approval to the person through MCP elicitation (a
 * form with one `approve` boolean). `executeToolCall` asks only after the
 * arguments have been validated, so nobody is asked about an invalid call.
 *
 * @param server The server whose client is asked.
 * @param request The call to approve.
 * @param signal Aborts the request.
 * @param flow The input's flow control, kept open while the answer is awaited.
 * @returns Whether the person approved.
 * @throws {WorkspaceError} `APPROVAL_UNAVAILABLE` when the client cannot elicit;
 *   `TOOL_CALL_DENIED` when the request got no answer.
 */
export async function askPerson(
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
