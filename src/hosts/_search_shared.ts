/**
 * The memory a grep worker thread (`_search_worker.ts`) shares with the
 * calling thread (`_search_threads.ts`): 32-bit slots, read and written with
 * `Atomics`, so neither waits for a message.
 *
 * Besides two counters, a ring of claim words: a batch sent with one is
 * shared out file by file. The worker takes files from its front; the calling
 * thread may take them back from its end (at the end of a search it would
 * otherwise wait, idle, for the worker's last files). Each word holds the
 * batch's next file from the front (low 16 bits) and the end of the files not
 * yet taken (high 16 bits); either side takes one by a compare-and-exchange
 * of the whole word, so a file is taken by exactly one of them (two counters
 * changed apart could both give the last file up).
 *
 * @module
 */

/** The slot counting the files a worker has finished (it wraps), added to as each is done. */
export const FINISHED = 0;
/** The slot holding the last search the calling thread ended (its id as a 32-bit integer): its queued files are skipped. */
export const ENDED = 1;
/** The first claim word. */
const CLAIMS = 2;
/**
 * Claim words per worker: batches in flight on one worker that the calling
 * thread may take files back from (one more waits with none: not shared out).
 * Twice the files one search may have in flight, in single-file batches.
 */
export const CLAIM_SLOTS = 2_048;
/** The bytes of a worker's shared memory. */
export const SHARED_BYTES: number = (CLAIMS + CLAIM_SLOTS) * 4;
/** Files one claim word can share out (16 bits each way). */
export const CLAIM_MAX_FILES = 0xffff;

/**
 * Opens claim word `slot` for a batch of `files` files, before the batch is sent.
 *
 * @param shared The worker's shared memory.
 * @param slot The claim word.
 * @param files The batch's files (at most {@link CLAIM_MAX_FILES}).
 */
export function openClaims(shared: Int32Array, slot: number, files: number): void {
  Atomics.store(shared, CLAIMS + slot, files << 16);
}

/**
 * Closes claim word `slot`: no file of its batch is taken by either side any
 * more (the worker has stopped early: a full result, an ended search).
 *
 * @param shared The worker's shared memory.
 * @param slot The claim word.
 */
export function closeClaims(shared: Int32Array, slot: number): void {
  Atomics.store(shared, CLAIMS + slot, 0);
}

/**
 * Takes the batch's next file from its front (the worker, in order).
 *
 * @param shared The worker's shared memory.
 * @param slot The batch's claim word.
 * @returns The file's index in the batch, or -1 when every file is taken.
 */
export function claimFront(shared: Int32Array, slot: number): number {
  for (;;) {
    const word = Atomics.load(shared, CLAIMS + slot);
    const front = word & 0xffff;
    if (front >= word >>> 16) return -1;
    if (Atomics.compareExchange(shared, CLAIMS + slot, word, word + 1) === word) return front;
  }
}

/**
 * Takes the batch's last file not yet taken (the calling thread, taking work back).
 *
 * @param shared The worker's shared memory.
 * @param slot The batch's claim word.
 * @returns The file's index in the batch, or -1 when every file is taken.
 */
export function claimBack(shared: Int32Array, slot: number): number {
  for (;;) {
    const word = Atomics.load(shared, CLAIMS + slot);
    const front = word & 0xffff;
    const end = word >>> 16;
    if (front >= end) return -1;
    if (Atomics.compareExchange(shared, CLAIMS + slot, word, ((end - 1) << 16) | front) === word) return end - 1;
  }
}
