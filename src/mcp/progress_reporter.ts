/**
 * MCP progress notifications for a tool call.
 *
 * @module
 */
import type { ToolProgress } from "../tools/tool.ts";

/**
 * MCP progress for a call whose client sent a `progressToken`: each report
 * of the tool becomes a `notifications/progress` (a failed send is dropped:
 * progress is advice). Without a token, `undefined` (the tool reports nothing).
 *
 * @param token The call's `progressToken`, if any.
 * @param send The SDK's `sendNotification`.
 * @returns The tool's `onProgress`, or `undefined`.
 */
export function progressReporter(
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
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}
