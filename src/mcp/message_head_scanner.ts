/**
 * What {@link MessageHeadScanner} recovers from a JSON-RPC message too large
 * to parse: its top-level `id` and `method`, when they are scalars.
 */
export interface ScannedMessage {
  /** The request id (a number or a string), or `undefined` when absent or not recovered. */
  id?: number | string;
  /** The method name, or `undefined` when absent. */
  method?: string;
}

// Byte values of the JSON structure characters.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Longest key or scalar kept while scanning; `id` and `method` values are short. */
const MAX_CAPTURE_BYTES = 256;

/**
 * Streams over the bytes of one JSON object that is too large to parse, in
 * bounded memory, and keeps the scalar values of its top-level `id` and
 * `method` keys, wherever they appear (the SDK's client writes `id` last).
 * Nested values are skipped; string contents never confuse it (quotes and
 * escapes are tracked; UTF-8 continuation bytes are never ASCII).
 *
 * @example Recovering a request id
 * ```ts
 * const scanner = new MessageHeadScanner();
 * scanner.push(new TextEncoder().encode('{"method":"tools/call","params":{"x":"…"},"id":7}'));
 * scanner.result(); // { id: 7, method: "tools/call" }
 * ```
 */
export class MessageHeadScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: whether the next value belongs to `key` (after its colon). */
  private afterColon = false;
  private key = "";
  /** Bytes of the key or scalar being captured, or `null` when not capturing. */
  private capture: number[] | null = null;
  private captureIsKey = false;
  private readonly found: { id?: string; method?: string } = {};

  /** Feeds the next bytes of the message. */
  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.inString) {
        if (this.capture !== null && this.capture.length <= MAX_CAPTURE_BYTES) this.capture.push(byte);
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          this.finishCapture(true);
        } else if (this.capture === null && this.depth > 1) {
          // Fast path through a long nested string: jump to the next quote or backslash.
          const nextQuote = bytes.indexOf(QUOTE, i + 1);
          const nextEscape = bytes.indexOf(BACKSLASH, i + 1);
          const next = nextQuote === -1 ? nextEscape : nextEscape === -1 ? nextQuote : Math.min(nextQuote, nextEscape);
          i = (next === -1 ? bytes.length : next) - 1;
        }
        continue;
      }
      if (byte === QUOTE) {
        this.finishCapture(false);
        this.inString = true;
        if (this.depth === 1) this.startCapture(!this.afterColon, [byte]);
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        this.finishCapture(false);
        this.depth++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.finishCapture(false);
        this.depth--;
      } else if (this.depth === 1 && byte === COLON) {
        this.finishCapture(false);
        this.afterColon = true;
      } else if (this.depth === 1 && byte === COMMA) {
        this.finishCapture(false);
        this.afterColon = false;
      } else if (this.depth === 1 && this.afterColon && byte > 0x20) {
        // A number or literal at the top level.
        if (this.capture === null) this.startCapture(false, []);
        if (this.capture !== null && this.capture.length <= MAX_CAPTURE_BYTES) this.capture.push(byte);
      }
    }
  }

  /** The top-level `id` and `method` seen so far. */
  result(): ScannedMessage {
    this.finishCapture(false);
    const out: ScannedMessage = {};
    const id = parseScalar(this.found.id);
    if (typeof id === "number" || typeof id === "string") out.id = id;
    const method = parseScalar(this.found.method);
    if (typeof method === "string") out.method = method;
    return out;
  }

  private startCapture(isKey: boolean, initial: number[]): void {
    this.capture = initial;
    this.captureIsKey = isKey;
  }

  /** Ends the current capture; a string ends only at its closing quote. */
  private finishCapture(stringClosed: boolean): void {
    if (this.capture === null || (this.inString && !stringClosed)) return;
    const text = this.capture.length > MAX_CAPTURE_BYTES
      ? undefined
      : new TextDecoder().decode(new Uint8Array(this.capture));
    this.capture = null;
    if (this.captureIsKey) {
      this.key = text === undefined ? "" : String(parseScalar(text) ?? "");
      return;
    }
    if (text === undefined) return;
    if (this.key === "id" && this.found.id === undefined) this.found.id = text;
    if (this.key === "method" && this.found.method === undefined) this.found.method = text;
  }
}

function parseScalar(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
