/**
 * `Host.searchThreads` on `node:worker_threads` (Node, Deno and Bun):
 * a pool of grep workers shared by every search of the process, started on
 * first use and kept (unreferenced while idle, so they never keep the process
 * alive), one fewer than the cores (the calling thread walks on the last one:
 * with as many workers as cores, each batch sent woke a worker that took the
 * walk's core, measured on 2 cores). A batch goes to the started worker with
 * the fewest batches waiting, with a claim word in the memory the worker
 * shares (`_search_shared.ts`) while one is free: the worker takes its files
 * from the front, and the calling thread may take those not yet begun back
 * from the end (`take`), so that at the end of a search both finish together.
 * A worker that cannot start (sources run without a TypeScript loader) turns
 * the pool off: grep then searches in the calling thread.
 *
 * @module
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { FileSearchResult, FileSearchSpec, FileSearchThreads } from "../host.ts";
import type { SearchWorkerData, SearchWorkerReply, SearchWorkerRequest } from "./_search_worker.ts";
import {
  CLAIM_MAX_FILES,
  CLAIM_SLOTS,
  claimBack,
  ENDED,
  FINISHED,
  openClaims,
  SHARED_BYTES,
} from "./_search_shared.ts";

interface Waiting {
  resolve(found: SearchWorkerReply): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  online: boolean;
  waiting: Map<number, Waiting>;
  /** Files sent to it so far (modulo 2^32, as `shared[FINISHED]` counts). */
  sent: number;
  /**
   * Shared with the worker: `[FINISHED]`, the files it has finished so far (counted by the worker);
   * `[ENDED]`, the last search ended here, whose batches still queued it skips.
   */
  shared: Int32Array;
  /** Claim words (`_search_shared.ts`) no batch in flight holds. */
  freeSlots: number[];
}

/** A batch in flight whose files the calling thread may take back: its worker and claim word. */
interface Claimable {
  thread: Thread;
  slot: number;
}

const pool: Thread[] = [];
let broken = false;
let nextSearch = 0;
let nextBatch = 0;

const runtimeOf = globalThis as { Deno?: unknown; Bun?: unknown };
// The worker's module beside this one: `.ts` from the sources, `.js` from the build.
const here = import.meta.url;
const workerUrl = new URL(here.endsWith(".ts") ? "./_search_worker.ts" : "./_search_worker.js", here);

function startWorker(workerData: SearchWorkerData): Worker {
  // Node runs the TypeScript sources (tests, the bench) only through a loader: register tsx first.
  if (workerUrl.pathname.endsWith(".ts") && runtimeOf.Deno === undefined && runtimeOf.Bun === undefined) {
    let tsx = "tsx/esm/api";
    // Looked up beside this module (through a plain reference, which JSR's analysis leaves alone).
    const meta: { resolve?: (specifier: string) => string } = import.meta;
    try {
      tsx = meta.resolve?.(tsx) ?? tsx;
    } catch {
      // resolved by the worker then, from its working directory
    }
    const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${
      JSON.stringify(workerUrl.href)
    }); });`;
    return new Worker(bootstrap, { eval: true, workerData });
  }
  return new Worker(workerUrl, { workerData });
}

function addThread(): void {
  const shared = new Int32Array(new SharedArrayBuffer(SHARED_BYTES));
  let worker: Worker;
  try {
    worker = startWorker({ shared: shared.buffer as SharedArrayBuffer });
  } catch {
    // Refused at once: Deno without read access to the worker's module (`--allow-read` scoped to the workspace)
    // throws NotCapable here. No worker will start: grep searches in the calling thread.
    broken = true;
    return;
  }
  const thread: Thread = {
    worker,
    online: false,
    waiting: new Map(),
    sent: 0,
    shared,
    freeSlots: Array.from({ length: CLAIM_SLOTS }, (_, slot) => CLAIM_SLOTS - 1 - slot),
  };
  worker.on("online", () => (thread.online = true));
  worker.on("message", (reply: SearchWorkerReply) => {
    const waiting = thread.waiting.get(reply.batch);
    if (waiting === undefined) return;
    thread.waiting.delete(reply.batch);
    if (thread.waiting.size === 0) worker.unref();
    waiting.resolve(reply);
  });
  worker.on("error", () => {
    if (!thread.online) broken = true; // it never started: no worker will
  });
  worker.on("exit", () => {
    const index = pool.indexOf(thread);
    if (index >= 0) pool.splice(index, 1);
    // Gone: nothing opens these batches' files any more.
    for (const waiting of thread.waiting.values()) waiting.reject(new Error("grep worker exited"));
    thread.waiting.clear();
  });
  // Unreferenced only now: on Node a "message" listener added later would reference its port again,
  // and a process whose grep ended before any batch was sent would never exit.
  worker.unref();
  pool.push(thread);
}

/**
 * Starts the pool's workers now (those {@link nodeSearchThreads} would use for
 * `threads`), in the background: a worker takes about 30 ms to start and load
 * its modules, which the first grep then does not wait for.
 *
 * @param threads Threads wanted (at most the cores there are, less one).
 * @returns Whether they are all running now (started earlier and online).
 */
export function warmNodeSearchThreads(threads: number): boolean {
  const wanted = Math.min(threads, availableParallelism() - 1);
  if (broken || wanted < 1) return false;
  while (!broken && pool.length < wanted) addThread();
  return !broken && pool.slice(0, wanted).every((thread) => thread.online);
}

/**
 * Search threads for one grep call.
 *
 * @param spec The search.
 * @param threads Threads wanted (at most the cores there are).
 * @returns The threads, or `null` when workers cannot run here.
 */
export function nodeSearchThreads(spec: FileSearchSpec, threads: number): FileSearchThreads | null {
  // The calling thread walks and merges: it keeps one core, the workers get the others.
  const wanted = Math.min(threads, availableParallelism() - 1);
  if (broken || wanted < 1) return null;
  while (!broken && pool.length < wanted) addThread();
  if (broken) return null;
  const search = ++nextSearch;
  const mine = pool.slice(0, wanted);
  for (const thread of mine) post(thread, { kind: "search", search, spec });
  let closed = false;
  // The batches of this search in flight with a claim word, by the promise `search` returned.
  const claimable = new Map<Promise<FileSearchResult[]>, Claimable>();
  return {
    get ready() {
      if (broken) return false;
      // A loop, not some(): read for every file a search adds, and a closure per read is garbage per file.
      for (const thread of mine) if (thread.online && pool.includes(thread)) return true;
      return false;
    },
    get queued() {
      let queued = 0;
      for (const thread of mine) {
        if (pool.includes(thread)) queued += (thread.sent - Atomics.load(thread.shared, FINISHED)) | 0;
      }
      return queued;
    },
    search(paths) {
      const live = mine.filter((thread) => thread.online && pool.includes(thread));
      if (closed || live.length === 0) return Promise.reject(new Error("no grep worker"));
      const thread = live.reduce((best, next) => (next.waiting.size < best.waiting.size ? next : best));
      const batch = ++nextBatch;
      // A claim word, if one is free: then the calling thread may take files of the batch back.
      const slot = paths.length <= CLAIM_MAX_FILES ? thread.freeSlots.pop() ?? -1 : -1;
      const results = new Promise<FileSearchResult[]>((resolve, reject) => {
        if (thread.waiting.size === 0) thread.worker.ref(); // a batch in flight keeps the process alive
        // Free again once the reply is in (the worker touches the word no more) or the worker is gone.
        const release = () => {
          if (slot < 0) return;
          claimable.delete(results);
          thread.freeSlots.push(slot);
        };
        thread.waiting.set(batch, {
          resolve: (reply) => {
            release();
            if ("error" in reply) return reject(new Error(reply.error));
            const outcomes: FileSearchResult[] = new Array(paths.length).fill(NOTHING_FOUND);
            for (const [index, outcome] of reply.found) outcomes[index] = outcome;
            resolve(outcomes);
          },
          reject: (error) => {
            release();
            reject(error);
          },
        });
        thread.sent = (thread.sent + paths.length) | 0;
        if (slot >= 0) openClaims(thread.shared, slot, paths.length);
        // One string, not an array: a message of one string is cloned ten times faster. NUL ends
        // each path (no name holds one).
        post(thread, { kind: "batch", search, batch, paths: paths.join("\0"), slot });
      });
      if (slot >= 0) claimable.set(results, { thread, slot });
      return results;
    },
    take(results) {
      const claim = claimable.get(results);
      return claim === undefined ? -1 : claimBack(claim.thread.shared, claim.slot);
    },
    close() {
      if (closed) return;
      closed = true;
      for (const thread of mine) {
        if (!pool.includes(thread)) continue;
        // Seen before its next file: the batches of this search it has queued end at once (an abort, a
        // full result, a warm-up a call ended would otherwise keep the thread busy for up to
        // GREP_MAX_QUEUED_FILES files, and the next search's batches waiting behind them).
        Atomics.store(thread.shared, ENDED, search | 0);
        post(thread, { kind: "end", search });
      }
    },
  };
}

const NOTHING_FOUND: FileSearchResult = Object.freeze({ matches: Object.freeze([]) as never, count: 0 });

function post(thread: Thread, message: SearchWorkerRequest): void {
  thread.worker.postMessage(message);
}
