import { INVALID_PARAMS, requestShapeProblem } from "./request_shape.ts";
import { MCP_EXIT_DRAIN_MS, MCP_MAX_MESSAGE_BYTES } from "../core/limits.ts";
import { BoundedLineReader, type OversizedLine } from "./bounded_line_reader.ts";
import type { JsonRpcMessage } from "./protocol_types.ts";

/** The readable side the transport listens on (`process.stdin`). */
export interface ByteSource {
  /** Listens for input bytes. */
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** Listens for the end of the input. */
  on(event: "end" | "close", listener: () => void): unknown;
  /** Listens for read errors. */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Removes a listener. */
  // deno-lint-ignore no-explicit-any
  off(event: string, listener: (...args: any[]) => void): unknown;
  /** Stops the flow of `data` events. */
  pause(): unknown;
  /** Restarts the flow of `data` events. */
  resume(): unknown;
}

/** The writable side the transport writes to (`process.stdout`). */
export interface ByteSink {
  /** Writes text; `false` means "full: wait for drain". */
  write(text: string): boolean;
  /** Calls `listener` once the sink can take more. */
  once(event: "drain", listener: () => void): unknown;
}

/** Options of {@link BoundedStdioTransport}. */
export interface BoundedStdioTransportOptions {
  /** Bytes of one message buffered at most. @default 4194304 ({@link MCP_MAX_MESSAGE_BYTES}) */
  maxMessageBytes?: number;
  /**
   * The reply to a message over the limit (given its recovered id and
   * method), or `undefined` to send a JSON-RPC "request too large" error when
   * it had an id and nothing otherwise.
   * @default undefined (the JSON-RPC "request too large" error)
   */
  oversizedReply?: (line: OversizedLine, maxMessageBytes: number) => JsonRpcMessage | undefined;
}

/** Whether a JSON-RPC id is one a reply is sent on (a string or a number; `null` and absent are not). */
const isRequestId = (value: unknown): value is string | number =>
  typeof value === "string" || typeof value === "number";

/** JSON-RPC error codes used by the transport itself. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * The MCP stdio transport (newline-delimited JSON-RPC) with a bound on each
 * message. The SDK's own stdio transport drops the whole session when one
 * message passes 10 MiB; this one skips the oversized message as it streams
 * in (holding none of it) and answers it, and answers a line that is not
 * JSON with a parse error, so the session always stays alive. Only protocol
 * messages are ever written to the sink.
 */
export class BoundedStdioTransport {
  /** Called when the input ends or {@link close} runs. */
  onclose?: () => void;
  /** Called for a problem that does not end the session. */
  onerror?: (error: Error) => void;
  /** Called for each message received. */
  onmessage?: (message: JsonRpcMessage) => void;
  /** The SDK's transport slot for a session id (stdio has none). */
  sessionId?: string;

  private readonly reader: BoundedLineReader;
  private readonly maxMessageBytes: number;
  private started = false;
  /** Resolves when a full sink drains; `undefined` while it is not full. */
  private drained: Promise<void> | undefined;
  private closed = false;
  /** Requests passed on and not yet answered, by id (a count: a client may reuse an id). */
  private readonly unanswered = new Map<string | number, number>();
  /** Set once the input has ended: the session closes when the last request read is answered. */
  private draining: ReturnType<typeof setTimeout> | undefined;

  /**
   * Creates the transport (call {@link start} to listen).
   *
   * @param input Where messages come from (stdin).
   * @param output Where messages go (stdout).
   * @param options The message limit and the reply to an oversized message.
   */
  constructor(
    private readonly input: ByteSource,
    private readonly output: ByteSink,
    private readonly options: BoundedStdioTransportOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
    this.reader = new BoundedLineReader(this.maxMessageBytes, {
      line: (text) => this.receive(text),
      oversized: (line) => this.receiveOversized(line),
    });
  }

  private readonly onData = (chunk: Uint8Array): void => {
    this.reader.push(chunk);
  };
  // The input ended: requests already read are still answered (for at most MCP_EXIT_DRAIN_MS), then the session closes.
  private readonly onEnd = (): void => {
    if (this.closed || this.draining !== undefined) return;
    if (this.unanswered.size === 0) return void this.close();
    this.stopListening();
    this.draining = setTimeout(() => void this.close(), MCP_EXIT_DRAIN_MS);
  };
  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** Starts listening. */
  start(): Promise<void> {
    if (this.started) throw new Error("Cannot start the stdio transport: it is already started");
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("close", this.onEnd);
    this.input.on("error", this.onError);
    return Promise.resolve();
  }

  /**
   * Writes one message; when the sink is full, resolves once it drains (all
   * writers waiting meanwhile share one "drain" listener).
   */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    const written = this.output.write(JSON.stringify(message) + "\n");
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (method === undefined && isRequestId(id)) this.answered(id);
    if (written) return this.drained ?? Promise.resolve();
    this.drained ??= new Promise((resolve) => {
      this.output.once("drain", () => {
        this.drained = undefined;
        resolve();
      });
    });
    return this.drained;
  }

  /**
   * Ends the input as if it had closed (a stop signal): nothing more is read,
   * the requests already read are answered (for at most
   * {@link MCP_EXIT_DRAIN_MS}), then the session closes.
   */
  endInput(): void {
    this.onEnd();
  }

  /** Stops reading input until {@link resumeInput} (backpressure); data already read is still delivered. */
  pauseInput(): void {
    if (!this.closed) this.input.pause();
  }

  /** Reads input again after {@link pauseInput}. */
  resumeInput(): void {
    if (!this.closed) this.input.resume();
  }

  /** Stops listening and reports the close once. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    clearTimeout(this.draining);
    this.stopListening();
    this.onclose?.();
    return Promise.resolve();
  }

  /** Stops taking input: no more data is read, and a partial line is dropped. */
  private stopListening(): void {
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("close", this.onEnd);
    this.input.off("error", this.onError);
    this.input.pause();
    this.reader.clear();
  }

  /** A reply went out: once the input has ended and nothing read is left unanswered, the session closes. */
  private answered(id: string | number): void {
    const count = this.unanswered.get(id);
    if (count === undefined) return;
    if (count > 1) this.unanswered.set(id, count - 1);
    else this.unanswered.delete(id);
    if (this.draining !== undefined && this.unanswered.size === 0) void this.close();
  }

  /** Parses one line and hands a JSON-RPC message on; anything else gets a JSON-RPC error reply. */
  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.onerror?.(new Error("Cannot read a message: it is not valid JSON"));
      void this.send({ jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "Parse error" } });
      return;
    }
    if (typeof message !== "object" || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      this.onerror?.(new Error("Cannot read a message: it is not a JSON-RPC 2.0 message"));
      void this.send({ jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: "Invalid Request" } });
      return;
    }
    const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof method === "string") {
      const problem = requestShapeProblem(method, params);
      if (problem !== null) {
        this.onerror?.(new Error(`Cannot take a message: ${problem}`));
        // A request is answered on its id; a notification has none to answer on.
        if (isRequestId(id)) {
          void this.send({
            jsonrpc: "2.0",
            id,
            error: { code: INVALID_PARAMS, message: `Invalid params: ${problem}` },
          });
        }
        return;
      }
    }
    if (typeof method === "string" && isRequestId(id)) {
      this.unanswered.set(id, (this.unanswered.get(id) ?? 0) + 1);
    }
    this.onmessage?.(message as JsonRpcMessage);
    // A cancelled request gets no reply: nothing is left to wait for on its id.
    const cancelled = (params as { requestId?: unknown } | undefined)?.requestId;
    if (method === "notifications/cancelled" && isRequestId(cancelled)) this.answered(cancelled);
  }

  /** Reports a line over the size limit and answers it when it had an id. */
  private receiveOversized(line: OversizedLine): void {
    this.onerror?.(
      new Error(`Cannot read a message: it has ${line.bytes} bytes, more than ${this.maxMessageBytes}`),
    );
    const reply = this.options.oversizedReply?.(line, this.maxMessageBytes) ?? (line.id === undefined ? undefined : {
      jsonrpc: "2.0" as const,
      id: line.id,
      error: { code: INVALID_REQUEST, message: `Request too large: more than ${this.maxMessageBytes} bytes` },
    });
    if (reply !== undefined) void this.send(reply);
  }
}
