import type { ToolCallResult } from "../registry/execute_tool_call.ts";
import type { CallToolResultJson } from "./protocol_types.ts";

/**
 * The MCP result for a Paddock result: the JSON as text, and as structured
 * content when it is an object. A media result (`read_media_file`'s `{kind:
 * "image" | "audio", mimeType, data, …}`) becomes that `image` / `audio`
 * content block, followed by the rest of the result as text and structured
 * content (without `data`, so the bytes are sent once).
 *
 * @param result What `executeToolCall` returned.
 * @returns The `tools/call` result.
 *
 * @example Answering a tools/call from your own server
 * ```ts
 * import { executeToolCall, type ToolRegistry } from "@paddock/tools";
 * import { toCallToolResult } from "@paddock/tools/mcp";
 * declare const registry: ToolRegistry;
 * const result = await executeToolCall(registry, { id: "1", name: "get_file_info", arguments: { path: "package.json" } });
 * toCallToolResult(result); // { content: [{ type: "text", text: "{…}" }], isError: false, structuredContent: { path: "package.json", … } }
 * ```
 */
export function toCallToolResult(result: ToolCallResult): CallToolResultJson {
  const parsed: unknown = JSON.parse(result.content);
  const media = result.isError ? undefined : mediaOf(parsed);
  if (media !== undefined) {
    const { data, ...rest } = media;
    return {
      content: [{ type: rest.kind, data, mimeType: rest.mimeType }, { type: "text", text: JSON.stringify(rest) }],
      isError: false,
      structuredContent: rest,
    };
  }
  const out: CallToolResultJson = { content: [{ type: "text", text: result.content }], isError: result.isError };
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
    out.structuredContent = parsed as Record<string, unknown>;
  }
  return out;
}

// A result with the media shape: `kind` image or audio, `mimeType` and base64 `data`.
function mediaOf(
  value: unknown,
): ({ kind: "image" | "audio"; mimeType: string; data: string } & Record<string, unknown>) | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { kind, mimeType, data } = value as Record<string, unknown>;
  if ((kind !== "image" && kind !== "audio") || typeof mimeType !== "string" || typeof data !== "string") {
    return undefined;
  }
  return value as { kind: "image" | "audio"; mimeType: string; data: string };
}
