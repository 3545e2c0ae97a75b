import { decodeUtf8Lenient } from "../text/utf8.ts";
import { omittedMarker } from "./run_process.ts";

/** What {@link OutputWindow.take} hands over: the text printed since the last take. */
export interface OutputTaken {
  /** The kept text: the start and the end (a marker between them says how many bytes were dropped). */
  text: string;
  /** Bytes printed since the last take and dropped here (0 when all fit). */
  droppedBytes: number;
}

/**
 * The output of one stream of a background process since it was last read:
 * the first half of `limit` bytes and the last half are kept, the middle is
 * counted and dropped, so memory stays flat however much the process prints
 * between two reads. Text is cut on UTF-8 character boundaries; a character
 * split across reads is held back until its last byte arrives.
 */
export class OutputWindow {
  #head: Uint8Array[] = [];
  #headBytes = 0;
  #tail: Uint8Array = new Uint8Array(0);
  #total = 0;
  #carry: Uint8Array = new Uint8Array(0);
  readonly #limit: number;

  /** @param limit Bytes kept between two reads. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  get #headLimit(): number {
    return Math.ceil(this.#limit / 2);
  }

  /** Whether anything was printed since the last take. */
  get pending(): boolean {
    return this.#total > 0;
  }

  /** Adds a chunk the process printed. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#total += chunk.length;
    const room = this.#headLimit - this.#headBytes;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.#head.push(part.slice());
      this.#headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    // The tail keeps the last bytes, plus a few to realign on a character.
    const keep = this.#limit - this.#headLimit + 4;
    const joined = new Uint8Array(Math.min(keep, this.#tail.length + chunk.length));
    const fromChunk = Math.min(chunk.length, joined.length);
    const fromTail = joined.length - fromChunk;
    joined.set(this.#tail.subarray(this.#tail.length - fromTail), 0);
    joined.set(chunk.subarray(chunk.length - fromChunk), fromTail);
    this.#tail = joined;
  }

  /**
   * Hands over what was printed since the last take and starts a new window.
   *
   * @param final Whether the stream has ended (nothing is held back then).
   * @returns The text and the bytes dropped.
   */
  take(final: boolean): OutputTaken {
    const carry = this.#carry;
    const head = concat([carry, ...this.#head]);
    const total = this.#total + carry.length;
    const tail = this.#tail;
    this.#head = [];
    this.#headBytes = 0;
    this.#tail = new Uint8Array(0);
    this.#total = 0;
    this.#carry = new Uint8Array(0);
    if (total - head.length <= tail.length) {
      // Nothing dropped: head and tail together are everything since the last take.
      const all = concat([head, tail.subarray(tail.length - (total - head.length))]);
      return { text: this.#decodeHoldingBack(all, final), droppedBytes: 0 };
    }
    const headCut = head.subarray(0, completePrefix(head));
    let start = Math.max(0, tail.length - (this.#limit - this.#headLimit));
    while (start < tail.length && (tail[start] & 0xc0) === 0x80) start++;
    const tailKept = tail.subarray(start);
    const tailText = this.#decodeHoldingBack(tailKept, final);
    const droppedBytes = total - headCut.length - tailKept.length;
    return {
      text: decodeUtf8Lenient(headCut) + omittedMarker(droppedBytes) + tailText,
      droppedBytes,
    };
  }

  // Decodes `bytes`; while the stream goes on, an incomplete last character waits for the next take.
  #decodeHoldingBack(bytes: Uint8Array, final: boolean): string {
    if (final) return decodeUtf8Lenient(bytes);
    const cut = completePrefix(bytes);
    this.#carry = bytes.slice(cut);
    return decodeUtf8Lenient(bytes.subarray(0, cut));
  }
}

// The length of `bytes` without an incomplete character at its end.
function completePrefix(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return size > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
