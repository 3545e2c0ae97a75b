// The SDK's "./*" export maps types to "*.d.ts" (here "streamableHttp.js.d.ts", which does not exist):
// Deno's type check is pointed at the name without ".js"; tsc and every runtime read the import itself.
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MCP_HTTP_REPLAY_BYTES } from "../core/limits.ts";

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * One session's sent messages, kept so that a client whose SSE stream broke
 * can resume it with `Last-Event-ID` (the Streamable HTTP transport's
 * resumability). At most `maxBytes` of messages are kept, the oldest dropped
 * first; a client resuming from a dropped event gets nothing replayed.
 *
 * @example
 * ```ts
 * // @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
 * import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
 * const transport = new StreamableHTTPServerTransport({ eventStore: new ReplayEventStore() });
 * ```
 */
export class ReplayEventStore implements EventStore {
  readonly #events: StoredEvent[] = [];
  readonly #maxBytes: number;
  #bytes = 0;
  #next = 1;

  /**
   * Makes an empty store.
   *
   * @param maxBytes Bytes of messages kept (JSON text). @default MCP_HTTP_REPLAY_BYTES
   */
  constructor(maxBytes: number = MCP_HTTP_REPLAY_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** Keeps one sent message; its id names its stream (`STREAM_N`), as the SDK's replay needs. */
  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${this.#next++}`;
    const bytes = JSON.stringify(message).length;
    this.#events.push({ id, streamId, message, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.#maxBytes && this.#events.length > 0) this.#bytes -= this.#events.shift()!.bytes;
    return Promise.resolve(id);
  }

  /** The stream an event was sent on, while the event is kept. */
  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.#events.find((event) => event.id === eventId)?.streamId);
  }

  /** Sends again every kept message of the same stream after `lastEventId`. */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.#events.findIndex((event) => event.id === lastEventId);
    if (at < 0) return "";
    const { streamId } = this.#events[at];
    for (const event of this.#events.slice(at + 1)) {
      if (event.streamId === streamId) await send(event.id, event.message);
    }
    return streamId;
  }
}
