import type { ByteSearch, ReadHead } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";
import {
  type FileReadHost,
  openRegularFile,
  readOpenedFile,
  readRegularFileSync,
  type RegularFileRead,
  SCRATCH_BYTES,
} from "../fs/read_regular_file.ts";
import { GREP_READ_CHUNK_BYTES } from "../limits.ts";
import { searchInChunks } from "./search_chunks.ts";
import type { Identity } from "../fs/same_identity.ts";
import {
  type LineMatch,
  looksBinary,
  searchText,
  type TextSearchOutcome,
  type TextSearchRequest,
} from "./search_text.ts";

/** Why a file was passed over without being searched. */
export type SkipReason = "binary" | "tooLarge" | "unreadable";

/** What searching one file found. */
export interface FileOutcome {
  /** Why it was not searched, when it was not. */
  skipped?: SkipReason;
  /** Matching lines (content mode: at most the request's `cap`). */
  matches: LineMatch[];
  /** Matching lines in all. */
  count: number;
}

/** How one file is read and searched. */
export interface FileSearchRequest extends TextSearchRequest {
  /** Bytes of a file searched at most; a larger one is skipped unread. */
  maxFileBytes: number;
  /** The byte search to use. */
  search: ByteSearch;
}

/**
 * A {@link FileSearchRequest} as a class instance: every call's has the same
 * shape from the first call on (why: docs/contributing.md, "On grep's path").
 */
export class SearchRequest implements FileSearchRequest {
  readonly matcher: FileSearchRequest["matcher"];
  readonly outputMode: FileSearchRequest["outputMode"];
  readonly context: number;
  readonly cap: number;
  readonly maxLineChars: number;
  readonly maxFileBytes: number;
  readonly search: ByteSearch;

  /** @param fields The request's fields. */
  constructor(fields: FileSearchRequest) {
    this.matcher = fields.matcher;
    this.outputMode = fields.outputMode;
    this.context = fields.context;
    this.cap = fields.cap;
    this.maxLineChars = fields.maxLineChars;
    this.maxFileBytes = fields.maxFileBytes;
    this.search = fields.search;
  }
}

/**
 * Reads (no-follow, non-blocking, a regular file only, at most
 * `maxFileBytes`) and searches one file a walk listed, in one synchronous
 * step on a host that reads synchronously; the bytes go into `scratch` (grown
 * when a file does not fit) and are not kept.
 *
 * @param host The host.
 * @param hostPath Where the file is reached: one name at its held folder.
 * @param request The search.
 * @param scratch The reused read buffer.
 * @returns What was found, or `null` when the host cannot read this file synchronously (use {@link searchFile}).
 * @throws {HostError} When the file cannot be opened or read.
 */
export function searchFileSync(
  host: FileReadHost,
  hostPath: string,
  request: FileSearchRequest,
  scratch: { buffer: Uint8Array },
): FileOutcome | null {
  const read = readRegularFileSync(
    host,
    hostPath,
    request.maxFileBytes,
    scratch,
    binaryHead(request.search),
    GREP_READ_CHUNK_BYTES,
  );
  return read === null ? null : searchRead(read, request, hostPath);
}

/**
 * {@link searchFileSync} through the host's asynchronous reads, for any file;
 * with `expected`, the opened handle must be that file (a file named
 * directly, checked by the confined walk).
 *
 * @param host The host.
 * @param hostPath Where the file is reached.
 * @param request The search.
 * @param expected The identity the opened file must have, if any.
 * @param display The path as the caller named it, for the error.
 * @param stop Asked between the parts of a large file: `true` ends its search, whose outcome (nothing found) the caller then drops. @default undefined
 * @returns What was found.
 * @throws {WorkspaceError} `PATH_CHANGED` when the opened file is not `expected`.
 * @throws {HostError} When the file cannot be opened or read.
 */
export async function searchFile(
  host: FileReadHost,
  hostPath: string,
  request: FileSearchRequest,
  expected?: Identity,
  display: string = hostPath,
  stop?: () => boolean,
): Promise<FileOutcome> {
  const opened = await openRegularFile(host, hostPath, request.maxFileBytes, expected);
  if (opened.kind !== "open") return searchRead(opened, request, display);
  try {
    if (opened.stat.size >= GREP_READ_CHUNK_BYTES) {
      const found = await searchInChunks(
        opened.file,
        request,
        request.search,
        request.maxFileBytes,
        GREP_READ_CHUNK_BYTES,
        stop,
      );
      if ("stopped" in found) return { matches: [], count: 0 };
      return "tooLarge" in found ? TOO_LARGE : outcomeOf(found);
    }
    const read = await readOpenedFile(opened.file, opened.stat, request.maxFileBytes, binaryHead(request.search));
    return searchRead(read, request, display);
  } finally {
    await opened.file.close().catch(() => {});
  }
}

const heads = new WeakMap<ByteSearch, ReadHead>();

// A binary file's head ends its read (ripgrep too stops at a NUL). The head is grep's read buffer's
// starting size, so a file that fits it still takes one read. One ReadHead per byte search: none per file.
function binaryHead(search: ByteSearch): ReadHead {
  let head = heads.get(search);
  if (head === undefined) {
    head = { bytes: SCRATCH_BYTES, stop: (bytes) => looksBinary(bytes, search.view(bytes), search) };
    heads.set(search, head);
  }
  return head;
}

function searchRead(read: RegularFileRead, request: FileSearchRequest, display: string): FileOutcome {
  if (read.kind === "changed") {
    throw new WorkspaceError("PATH_CHANGED", `Cannot search '${display}': the file changed while it was opened`, {
      path: display,
    });
  }
  if (read.kind === "too-large") return TOO_LARGE;
  if (read.kind === "not-a-file") return { skipped: "unreadable", matches: [], count: 0 };
  if (read.kind === "head") return { skipped: "binary", matches: [], count: 0 };
  return outcomeOf(searchText(read.bytes, request, request.search));
}

const TOO_LARGE: FileOutcome = Object.freeze({
  skipped: "tooLarge",
  matches: Object.freeze([]) as unknown as LineMatch[],
  count: 0,
});

function outcomeOf(found: TextSearchOutcome): FileOutcome {
  return found.binary ? { skipped: "binary", matches: [], count: 0 } : found;
}
