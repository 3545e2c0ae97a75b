import type { IncomingMessage } from "node:http";

/** A request body read up to a bound: its text, or why it was not read (`too-large`: over the request's bound; `busy`: over the server's budget of bodies being read). */
export type HttpBody = { refused: "too-large" } | { refused: "busy" } | { refused: undefined; text: string };

/**
 * The bytes of request bodies held at once by one server, all requests
 * together: a body is held from its first chunk until it is whole (then
 * parsed and let go), so slow senders cannot together fill memory.
 *
 * @example
 * ```ts
 * const budget = new BodyBudget(67_108_864);
 * budget.take(1024); // true: held
 * budget.give(1024);
 * ```
 */
export class BodyBudget {
  /** Bytes held now. */
  held = 0;
  /** Bytes that may be held at once. */
  readonly max: number;

  /** @param max Bytes that may be held at once. */
  constructor(max: number) {
    this.max = max;
  }

  /**
   * Holds `bytes` more if that stays within the budget.
   *
   * @param bytes The bytes to hold.
   * @returns Whether they are held.
   */
  take(bytes: number): boolean {
    if (this.held + bytes > this.max) return false;
    this.held += bytes;
    return true;
  }

  /**
   * Lets go of `bytes` held.
   *
   * @param bytes The bytes held.
   */
  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

/**
 * Reads a request's body as UTF-8 text, at most `maxBytes`: a declared
 * `Content-Length` over the bound (or over what is left of `budget`) is
 * refused before a byte is read; else the read stops as soon as more than the
 * bound has arrived, or a chunk would pass the budget (what was read is
 * dropped, nothing is parsed). What the read held of the budget is given back
 * however it ends.
 *
 * @param request The request.
 * @param maxBytes The bound.
 * @param budget The server's budget of bodies being read. @default none
 * @returns The text, or why it was refused.
 * @throws {Error} When the client breaks the connection mid-body.
 *
 * @example
 * ```ts
 * import * as http from "node:http";
 * const budget = new BodyBudget(67_108_864);
 * http.createServer(async (req, res) => {
 *   const body = await readHttpBody(req, 4_194_304, budget);
 *   res.statusCode = body.refused === "too-large" ? 413 : body.refused === "busy" ? 503 : 200;
 *   res.end();
 * });
 * ```
 */
export function readHttpBody(request: IncomingMessage, maxBytes: number, budget?: BodyBudget): Promise<HttpBody> {
  // 1. A declared length over the bound, or over what the budget has left: refused unread.
  const declared = Number(request.headers["content-length"] ?? NaN);
  if (declared > maxBytes) return Promise.resolve({ refused: "too-large" });
  if (budget !== undefined && declared > budget.max - budget.held) return Promise.resolve({ refused: "busy" });
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const settle = (outcome: HttpBody | Error): void => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("close", onClose);
      budget?.give(bytes);
      chunks.length = 0;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    // 2. Chunks kept until the bound (or the budget) is passed; then the rest is not kept (the reply closes the connection).
    const onData = (chunk: Uint8Array): void => {
      if (bytes + chunk.byteLength > maxBytes) return settle({ refused: "too-large" });
      if (budget !== undefined && !budget.take(chunk.byteLength)) return settle({ refused: "busy" });
      bytes += chunk.byteLength;
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const text = Buffer.concat(chunks).toString("utf8");
      settle({ refused: undefined, text });
    };
    const onError = (error: Error): void => settle(error);
    // A client gone mid-body (or cut at the request timeout) gives its bytes back.
    const onClose = (): void => settle(new Error("the client closed the connection mid-body"));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
  });
}
