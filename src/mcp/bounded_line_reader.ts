import { MessageHeadScanner, type ScannedMessage } from "./message_head_scanner.ts";

const NEWLINE = 0x0a;

/** What {@link BoundedLineReader} reports for a line over its limit. */
export interface OversizedLine extends ScannedMessage {
  /** The line's length in bytes (without the newline). */
  bytes: number;
}

/** Callbacks of a {@link BoundedLineReader}. */
export interface BoundedLineReaderHandlers {
  /** A complete line within the limit, without its newline (and without a final `\r`). */
  line(text: string): void;
  /** A line over the limit: its bytes were scanned and dropped as they came. */
  oversized(info: OversizedLine): void;
}

/**
 * Splits a byte stream into newline-delimited lines while holding at most
 * `maxBytes` of any one line. A longer line is not buffered: from the moment
 * it passes the limit its bytes go through a {@link MessageHeadScanner} and are
 * dropped, and at its newline the handler learns its id and method, so the
 * sender can still get an answer.
 */
export class BoundedLineReader {
  private chunks: Uint8Array[] = [];
  private length = 0;
  private scanner: MessageHeadScanner | null = null;
  private readonly decoder = new TextDecoder();

  /**
   * @param maxBytes Longest line buffered, in bytes.
   * @param handlers Where lines go.
   */
  constructor(private readonly maxBytes: number, private readonly handlers: BoundedLineReaderHandlers) {}

  /** Feeds the next bytes of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** Drops a partial line (at the end of the stream). */
  clear(): void {
    this.chunks = [];
    this.length = 0;
    this.scanner = null;
  }

  private append(part: Uint8Array): void {
    if (part.length === 0) return;
    this.length += part.length;
    if (this.scanner !== null) {
      this.scanner.push(part);
      return;
    }
    if (this.length <= this.maxBytes) {
      // Copy: the stream may reuse its buffer.
      this.chunks.push(part.slice());
      return;
    }
    // Over the limit: scan what was buffered, drop it, and scan the rest as it comes.
    this.scanner = new MessageHeadScanner();
    for (const held of this.chunks) this.scanner.push(held);
    this.chunks = [];
    this.scanner.push(part);
  }

  private endLine(): void {
    const length = this.length;
    const scanner = this.scanner;
    const chunks = this.chunks;
    this.clear();
    if (scanner !== null) {
      this.handlers.oversized({ ...scanner.result(), bytes: length });
      return;
    }
    if (length === 0) return;
    let text: string;
    if (chunks.length === 1) text = this.decoder.decode(chunks[0]);
    else {
      const all = new Uint8Array(length);
      let offset = 0;
      for (const chunk of chunks) {
        all.set(chunk, offset);
        offset += chunk.length;
      }
      text = this.decoder.decode(all);
    }
    this.handlers.line(text.endsWith("\r") ? text.slice(0, -1) : text);
  }
}
