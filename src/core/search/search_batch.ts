import type { ByteSearch, FileSearchSpec } from "../../host.ts";
import type { FileReadHost } from "../fs/read_regular_file.ts";
import { isAbortError } from "../errors.ts";
import { compileLineMatcher } from "./line_matcher.ts";
import { type FileOutcome, type FileSearchRequest, searchFile, searchFileSync, SearchRequest } from "./search_file.ts";

/**
 * The request of a {@link FileSearchSpec}: its pattern compiled again (in a
 * worker thread, or in the caller's own).
 *
 * @param spec The search, as plain data.
 * @param search The byte search to use.
 * @returns The request for {@link searchFile}.
 * @throws {WorkspaceError} `INVALID_PATTERN` (never for a spec made from a compiled call).
 */
export function fileSearchRequest(spec: FileSearchSpec, search: ByteSearch): FileSearchRequest {
  return new SearchRequest({
    matcher: compileLineMatcher(spec.pattern, { literal: spec.literal, ignoreCase: spec.ignoreCase }),
    outputMode: spec.outputMode,
    context: spec.context,
    cap: spec.cap,
    maxLineChars: spec.maxLineChars,
    maxFileBytes: spec.maxFileBytes,
    search,
  });
}

/**
 * The results one file's outcome adds to grep's result, as its merge counts
 * them toward `cap`: its matching lines in content mode, else one for a file
 * with a match. Outcomes that together reach `cap` fill a whole result, so
 * nothing after them can be shown.
 *
 * @param outcome The file's outcome.
 * @param outputMode What grep returns.
 * @returns How many results it adds.
 */
export function resultsAdded(outcome: FileOutcome, outputMode: FileSearchRequest["outputMode"]): number {
  return outputMode === "content" ? outcome.count : outcome.count > 0 ? 1 : 0;
}

/** What a file that cannot be read (gone, a link now, no permission) counts as in a walk. */
export const UNREADABLE: FileOutcome = Object.freeze({
  skipped: "unreadable",
  matches: Object.freeze([]) as unknown as FileOutcome["matches"],
  count: 0,
});

/**
 * Searches one file a walk listed: synchronously into `scratch` where the
 * host can, else through its asynchronous reads; a file that cannot be read
 * is {@link UNREADABLE} (an abort still rejects). Most files are done
 * synchronously: the result is then no promise.
 *
 * @param host The host.
 * @param path One name at its held folder.
 * @param request The search.
 * @param scratch The reused read buffer.
 * @param stop Asked between the parts of a large file (read asynchronously): `true` ends its search, and the
 * caller drops its outcome. @default undefined
 * @returns What was found (a promise when the file was read asynchronously).
 */
export function searchListedFile(
  host: FileReadHost,
  path: string,
  request: FileSearchRequest,
  scratch: { buffer: Uint8Array },
  stop?: () => boolean,
): FileOutcome | Promise<FileOutcome> {
  return searchListedFileSync(host, path, request, scratch) ?? searchListedFileAsync(host, path, request, stop);
}

/**
 * The synchronous half of {@link searchListedFile}.
 *
 * @param host The host.
 * @param path One name at its held folder.
 * @param request The search.
 * @param scratch The reused read buffer.
 * @returns What was found, or `null` when the host declined to read this file
 * synchronously (no `readSync`, a file over its bound, or one that grew while read).
 */
export function searchListedFileSync(
  host: FileReadHost,
  path: string,
  request: FileSearchRequest,
  scratch: { buffer: Uint8Array },
): FileOutcome | null {
  try {
    return searchFileSync(host, path, request, scratch);
  } catch {
    return UNREADABLE;
  }
}

/**
 * The asynchronous half of {@link searchListedFile}: the host's asynchronous reads.
 *
 * @param host The host.
 * @param path One name at its held folder.
 * @param request The search.
 * @param stop As {@link searchListedFile}'s. @default undefined
 * @returns What was found.
 */
export function searchListedFileAsync(
  host: FileReadHost,
  path: string,
  request: FileSearchRequest,
  stop?: () => boolean,
): Promise<FileOutcome> {
  return searchFile(host, path, request, undefined, path, stop).catch((error) => {
    if (isAbortError(error)) throw error;
    return UNREADABLE;
  });
}
