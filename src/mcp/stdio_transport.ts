import { MCP_MAX_MESSAGE_BYTES } from "../core/limits.ts";
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
  private readonly onEnd = (): void => {
    void this.close();
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
    if (this.output.write(JSON.stringify(message) + "\n")) return this.drained ?? Promise.resolve();
    this.drained ??= new Promise((resolve) => {
      this.output.once("drain", () => {
        this.drained = undefined;
        resolve();
      });
    });
    return this.drained;
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
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("close", this.onEnd);
    this.input.off("error", this.onError);
    this.input.pause();
    this.reader.clear();
    this.onclose?.();
    return Promise.resolve();
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
    this.onmessage?.(message as JsonRpcMessage);
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
