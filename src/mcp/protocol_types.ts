/**
 * The few MCP shapes the server builds, declared here so the module type-checks
 * from the SDK's `./server` export alone (its deep `./*` type paths do not
 * resolve under Deno). They match the protocol's own definitions.
 *
 * @module
 */
import * as z from "zod";

/** A JSON-RPC 2.0 message (request, notification or response), as it travels. */
export type JsonRpcMessage = { jsonrpc: "2.0" } & Record<string, unknown>;

/** The result of `tools/call`: the JSON as text, the same as structured content, and the error flag. */
export interface CallToolResultJson {
  /** Other result fields the protocol allows. */
  [key: string]: unknown;
  /** The result's JSON, as one text block; a media result puts its `image` or `audio` block first. */
  content: ({ type: "text"; text: string } | { type: "image" | "audio"; data: string; mimeType: string })[];
  /** Whether the call failed. */
  isError: boolean;
  /** The same result as structured JSON. */
  structuredContent?: Record<string, unknown>;
}

/** One tool as `tools/list` advertises it. */
export interface ListedTool {
  /** Other tool fields the protocol allows. */
  [key: string]: unknown;
  /** The tool's name. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: { type: "object"; [key: string]: unknown };
  /** Hints about the tool's behaviour. */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** The `tools/list` request (pagination is not needed: every tool fits in one page). */
export const ListToolsRequestSchema: z.ZodObject<{ method: z.ZodLiteral<"tools/list"> }, z.core.$loose> = z.looseObject(
  {
    method: z.literal("tools/list"),
  },
);

/** The `tools/call` request. */
export const CallToolRequestSchema: z.ZodObject<{
  method: z.ZodLiteral<"tools/call">;
  params: z.ZodObject<
    { name: z.ZodString; arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>> },
    z.core.$loose
  >;
}, z.core.$loose> = z.looseObject({
  method: z.literal("tools/call"),
  params: z.looseObject({ name: z.string(), arguments: z.optional(z.record(z.string(), z.unknown())) }),
});

/** The `notifications/initialized` notification (the client's end of the handshake). */
export const InitializedNotificationSchema: z.ZodObject<
  { method: z.ZodLiteral<"notifications/initialized"> },
  z.core.$loose
> = z.looseObject({ method: z.literal("notifications/initialized") });

/** The `notifications/roots/list_changed` notification (the client's roots changed). */
export const RootsListChangedNotificationSchema: z.ZodObject<
  { method: z.ZodLiteral<"notifications/roots/list_changed"> },
  z.core.$loose
> = z.looseObject({ method: z.literal("notifications/roots/list_changed") });
