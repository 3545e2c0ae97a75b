/**
 * The host seam's search types: native byte searches for grep's fast path,
 * and the worker-thread file searches a host may offer.
 *
 * @module
 */
import type { LineMatch } from "./core/search/search_text.ts";

/**
 * Native searches on raw bytes, for grep's fast path (a file without the
 * needle is ruled out before it is decoded): Node's `Buffer` is one.
 */
export interface ByteView {
  /** The index of `needle` (one byte value, or a byte sequence) at or after `from`, or -1. */
  indexOf(needle: number | Uint8Array, from: number): number;
  /**
   * Optional: `true` when each {@link ByteView.indexOf} is a call with a
   * fixed cost (libc through FFI), so a needle is not scanned for by its
   * rarest byte with a look at every hit (a call per hit): the rarest byte is
   * looked for once (`memchr`: most files lack it), and from there the whole
   * needle (`memmem`).
   * @default false
   */
  readonly wholeSequences?: boolean;
  /**
   * Optional: the index of `lower` (ASCII, lowercase, not empty, no NUL byte)
   * at or after `from` in any ASCII case, bytes outside ASCII compared as
   * they are, or -1: one native scan (libc's `strcasestr`) where
   * {@link ByteView.indexOf} would be a scan for the needle's rarest bytes in
   * each case and a look at every hit.
   * @default undefined (grep scans with `indexOf`)
   */
  indexOfFolded?(lower: Uint8Array, from: number): number;
}

/** Makes {@link ByteView}s: views of the caller's bytes, never copies. */
export interface ByteSearch {
  /** A view of `bytes` with native searches. */
  view(bytes: Uint8Array): ByteView;
  /**
   * Optional: zeroed bytes whose views (and those of their subarrays) cost
   * nothing (Node's `Buffer`), for the buffer grep reads files into.
   * @default `new Uint8Array(size)`
   */
  alloc?(size: number): Uint8Array;
}

/**
 * One grep search, as plain data a worker thread can compile again (the
 * pattern, not the compiled matcher).
 */
export interface FileSearchSpec {
  /** The pattern as the call gave it. */
  pattern: string;
  /** Whether it is plain text. */
  literal: boolean;
  /** Whether matching ignores case. */
  ignoreCase: boolean;
  /** What is returned per file. */
  outputMode: "content" | "files_with_matches" | "count";
  /** Lines of context before and after each match (content mode). */
  context: number;
  /** Matching lines kept per file at most (content mode). */
  cap: number;
  /** Characters of a returned line at most. */
  maxLineChars: number;
  /** Bytes of a file searched at most; a larger one is skipped unread. */
  maxFileBytes: number;
}

/**
 * What searching one file found, as {@link FileSearchThreads} hand it back
 * (the core's `FileOutcome`).
 */
export interface FileSearchResult {
  /** Why it was not searched, when it was not. */
  skipped?: "binary" | "tooLarge" | "unreadable";
  /** Matching lines (content mode). */
  matches: LineMatch[];
  /** Matching lines in all. */
  count: number;
}

/**
 * Searches files on other threads, for grep over a large tree: each path is
 * one name at a held folder (`${at}/${name}`), opened there exactly as the
 * calling thread would open it (no-follow, non-blocking, a regular file
 * only). Descriptors are process-wide, so another thread reaches a folder
 * this one holds; the caller keeps every folder of a batch held until the
 * batch has settled.
 */
export interface FileSearchThreads {
  /** Whether the threads have started; until then the caller searches in its own thread. */
  readonly ready: boolean;
  /**
   * Searches `paths`, in order, and resolves with one result per path; rejects
   * (when a thread fails) only once no thread uses the paths any more.
   */
  search(paths: readonly string[]): Promise<FileSearchResult[]>;
  /**
   * Optional: files sent to these threads (by every search that shares them)
   * that they have not yet finished, as the threads count them now; a reply
   * not yet taken does not count. The caller searches files itself only while
   * this keeps the threads busy. Without it the caller counts files whose
   * replies it has not taken.
   */
  readonly queued?: number;
  /**
   * Optional: takes back from a batch in flight (`results`, as {@link search}
   * returned it) the last of its files no thread has begun, for the caller to
   * search itself: at the end of a search, rather than wait idle for the
   * threads' last files. The taken file's entry in the batch's results is then
   * not its result. Without it the caller waits.
   *
   * @param results A batch's promise, not yet settled.
   * @returns The taken file's index in the batch, or -1 when none is left to take.
   */
  take?(results: Promise<FileSearchResult[]>): number;
  /** Lets the threads go idle: this search sends no more batches. */
  close(): void;
}
