/**
 * The memory a grep worker thread (`_search_worker.ts`) shares with the
 * calling thread (`_search_threads.ts`): two 32-bit slots, read and written
 * with `Atomics`, so neither waits for a message.
 *
 * @module
 */

/** The slot counting the files a worker has finished (it wraps), added to as each is done. */
export const FINISHED = 0;
/** The slot holding the last search the calling thread ended (its id as a 32-bit integer): its queued files are skipped. */
export const ENDED = 1;
/** The bytes of a worker's shared memory. */
export const SHARED_BYTES = 8;
