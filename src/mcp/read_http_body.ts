import type { IncomingMessage } from "node:http";

/** A request body read up to a bound. */
export type HttpBody = { tooLarge: true } | { tooLarge: false; text: string };

/**
 * Reads a request's body as UTF-8 text, at most `maxBytes`: a declared
 * `Content-Length` over the bound is refused before a byte is read; else the
 * read stops as soon as more than the bound has arrived (what was read is
 * dropped, nothing is parsed).
 *
 * @param request The request.
 * @param maxBytes The bound.
 * @returns The text, or `tooLarge`.
 * @throws {Error} When the client breaks the connection mid-body.
 *
 * @example
 * ```ts
 * import * as http from "node:http";
 * http.createServer(async (req, res) => {
 *   const body = await readHttpBody(req, 4_194_304);
 *   res.statusCode = body.tooLarge ? 413 : 200;
 *   res.end();
 * });
 * ```
 */
export function readHttpBody(request: IncomingMessage, maxBytes: number): Promise<HttpBody> {
  // 1. A declared length over the bound: refused unread.
  const declared = Number(request.headers["content-length"] ?? NaN);
  if (declared > maxBytes) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    // 2. Chunks kept until the bound is passed; then the rest is not kept (the reply closes the connection).
    const onData = (chunk: Uint8Array): void => {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) {
        request.off("data", onData);
        request.off("end", onEnd);
        request.off("error", onError);
        chunks.length = 0;
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve({ tooLarge: false, text: Buffer.concat(chunks).toString("utf8") });
    const onError = (error: Error): void => reject(error);
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}
