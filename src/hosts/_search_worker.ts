/**
 * The entry of a grep worker thread (`node:worker_threads`, which Node, Deno
 * and Bun all run): compiles each search's pattern again, then searches the
 * batches of files it is sent, each one name at a folder the calling thread
 * holds (`/proc/self/fd/<fd>/<name>`: descriptors are process-wide), opened
 * no-follow and non-blocking by this thread's own Node host, exactly as the
 * calling thread would. Only results that say something go back.
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FileSearchSpec } from "../host.ts";
import { fileSearchRequest, resultsAdded, searchListedFile } from "../core/search/search_batch.ts";
import type { FileOutcome, FileSearchRequest } from "../core/search/search_file.ts";
import process from "node:process";
import { nodeFileSystem } from "./_node_fs.ts";
import { denoByteSearch } from "./_deno_byte_search.ts";
import { type FileReadHost, Scratch, SCRATCH_BYTES, scratchBytes } from "../core/fs/read_regular_file.ts";
import { NODE_ERRORS } from "./_node_errors.ts";
import { readSyncWith, WORKER_READ_SYNC_MAX_BYTES } from "./_node_read_sync.ts";
import { claimFront, closeClaims, ENDED, FINISHED, SHARED_BYTES } from "./_search_shared.ts";

/** A message to a worker: a new search, or a batch of files for one. */
export type SearchWorkerRequest =
  | { kind: "search"; search: number; spec: FileSearchSpec }
  | { kind: "end"; search: number }
  /**
   * `paths`: the files' paths, separated by NUL bytes (no name holds one). `slot`: the batch's claim word
   * (`_search_shared.ts`), its files taken one by one from the front (the calling thread may take some
   * back from the end), or -1: every file is this thread's.
   */
  | { kind: "batch"; search: number; batch: number; paths: string; slot: number };

/** What a worker is started with: memory shared with the calling thread. */
export interface SearchWorkerData {
  /** `SHARED_BYTES` bytes: the 32-bit slots `FINISHED` and `ENDED`, then the claim words (`_search_shared.ts`). */
  shared: SharedArrayBuffer;
}

/** A worker's answer to a batch: the results of the files with something to say, by index. */
export type SearchWorkerReply =
  | { batch: number; found: [number, FileOutcome][] }
  | { batch: number; error: string };

// Only the file half of the Node host (no processes: a smaller module graph, so the thread starts sooner).
// Files up to 64 MiB in one synchronous step: this thread has no event loop to keep turning (grep asks
// for files under GREP_READ_CHUNK_BYTES alone; a larger one it reads in parts).
// Under Deno, whose `node:buffer` searches in JavaScript, the Deno host's byte search.
const files = nodeFileSystem({ sync: true, errors: NODE_ERRORS, procfs: process.platform === "linux" });
const host: FileReadHost = {
  open: files.open,
  readSync: readSyncWith(NODE_ERRORS.mapError, WORKER_READ_SYNC_MAX_BYTES),
  byteSearch: "Deno" in globalThis ? denoByteSearch() : files.byteSearch,
};
const scratch = new Scratch(scratchBytes(host, SCRATCH_BYTES));
const requests = new Map<number, FileSearchRequest>();
const given = (workerData as Partial<SearchWorkerData> | null)?.shared;
// Files finished: the calling thread reads how many of those it sent are left, without a message;
// and the search it ended last, whose files this thread then no longer opens.
const shared = new Int32Array(given instanceof SharedArrayBuffer ? given : new SharedArrayBuffer(SHARED_BYTES));

// One message at a time, in the order sent. A batch's large file is read in parts asynchronously; were
// the next batches begun meanwhile, this thread would hold dozens of files open at once (33 large ones
// at the peak of a kernel-tree search, each with a 1 MiB buffer), and a batch would end after later ones.
let queue: Promise<void> = Promise.resolve();
parentPort?.on("message", (message: SearchWorkerRequest) => {
  // A failure outside a batch's own catch ends the thread, as an uncaught one would (the calling thread
  // then rejects what was waiting), and never stops the queue for good.
  queue = queue.then(() => handle(message)).catch((error) =>
    queueMicrotask(() => {
      throw error;
    })
  );
});

async function handle(message: SearchWorkerRequest): Promise<void> {
  if (message.kind === "search") {
    requests.set(message.search, fileSearchRequest(message.spec, host.byteSearch!));
    return;
  }
  if (message.kind === "end") {
    requests.delete(message.search);
    // A large file's buffer is not kept between searches.
    if (requests.size === 0 && scratch.buffer.length > SCRATCH_BYTES) {
      scratch.buffer = scratchBytes(host, SCRATCH_BYTES);
    }
    return;
  }
  const paths = message.paths.split("\0");
  const request = requests.get(message.search);
  let done = 0;
  let reply: SearchWorkerReply;
  if (request === undefined) reply = { batch: message.batch, error: "unknown search" };
  else {
    const found: [number, FileOutcome][] = [];
    try {
      let results = 0;
      const search = message.search | 0;
      // Asked between a large file's parts too.
      const ended = () => Atomics.load(shared, ENDED) === search;
      const slot = message.slot;
      for (let next = 0;; next++) {
        // The next file not taken back by the calling thread (which takes from the end).
        const i = slot < 0 ? (next < paths.length ? next : -1) : claimFront(shared, slot);
        if (i < 0) break;
        // Ended (aborted, a full result): nobody wants these outcomes, and the next search waits behind them.
        if (ended()) break;
        let outcome = searchListedFile(host, paths[i], request, scratch, ended);
        if (outcome instanceof Promise) outcome = await outcome;
        Atomics.add(shared, FINISHED, 1);
        done++;
        if (outcome.count > 0 || outcome.skipped !== undefined) found.push([i, outcome]);
        // The results this batch has found so far fill a whole result on their own: the files after
        // them can never be shown (the merge stops at the one that overflows), so they are not searched.
        results += resultsAdded(outcome, request.outputMode);
        if (results >= request.cap) break;
      }
      reply = { batch: message.batch, found };
    } catch (error) {
      reply = { batch: message.batch, error: String(error) };
    }
  }
  // Stopped early or not, the calling thread takes back none of its files from now on.
  if (message.slot >= 0) closeClaims(shared, message.slot);
  // Every file of the batch is done with before its reply goes: searched, taken back, or skipped. (One
  // taken back by the calling thread counts as finished only now; it is searched there meanwhile.)
  Atomics.add(shared, FINISHED, paths.length - done);
  parentPort?.postMessage(reply);
}
