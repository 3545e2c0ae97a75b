import type { FileSearchResult, FileSearchSpec, FileSearchThreads, Host } from "../../host.ts";
import { throwIfAborted } from "../errors.ts";
import type { Folder } from "../fs/folder.ts";
import {
  GREP_MAX_PENDING_FILES,
  GREP_MAX_QUEUED_FILES,
  GREP_MAX_THREADS,
  GREP_SLOW_FILE_MS,
  GREP_SLOW_FILES,
  GREP_THREADS_AFTER_FILES,
} from "../limits.ts";
import { searchListedFile, searchListedFileAsync, searchListedFileSync } from "./search_batch.ts";
import type { FileOutcome, FileSearchRequest } from "./search_file.ts";
import { Scratch, SCRATCH_BYTES, scratchBytes } from "../fs/read_regular_file.ts";
import { yieldTurn } from "../fs/yield_turn.ts";
import { WALK_SLICE_MS } from "../fs/walk_workspace.ts";
import { type DeliverOutcome, OrderedOutcomes, type QueuedFile as Item } from "./ordered_outcomes.ts";
import { FolderHolds } from "./folder_holds.ts";

/** Files sent to a thread in one message: a message costs tens of microseconds, a file about as much. */
const BATCH_FILES = 64;

/**
 * Files queued on the threads past which this thread searches the next files
 * itself: about 8 ms of a thread's work, more than this thread spends between
 * two files it adds (a folder listed, a large file searched, a turn of the
 * event loop). The threads say how many of their files are left
 * ({@link FileSearchThreads.queued}); threads that do not are judged by the
 * files whose replies this thread has not taken, which counts a batch
 * already done until the next turn (the threads then sat idle 10–15% of a
 * kernel-tree grep).
 */
const HELP_AFTER_FILES = 512;

/** Options of {@link OrderedFileSearch}. */
export interface OrderedFileSearchOptions {
  /** The search, compiled, for files searched in this thread. */
  request: FileSearchRequest;
  /** The same search as plain data, for other threads. */
  spec: FileSearchSpec;
  /** Threads to search on at most; 0 searches in this thread only. @default {@link GREP_MAX_THREADS} */
  threads?: number;
  /** Files searched in this thread before threads are asked for. @default {@link GREP_THREADS_AFTER_FILES} */
  threadsAfter?: number;
  /** Ends a wait for the threads with an AbortError. @default undefined */
  signal?: AbortSignal;
  /**
   * Takes one file's outcome, in the order the files were added; returns
   * `false` when no more results are wanted. Called as a method of the
   * options (a class's method stays the same function from search to search).
   */
  deliver: DeliverOutcome;
}

/** A batch on the threads, until it settles. */
interface Flight {
  /** What the threads' `search` returned for it. */
  results: Promise<FileSearchResult[]>;
  /** When it has settled (its outcomes in, its folders let go). */
  settled: Promise<void>;
  items: Item[];
  /** Indexes of its files taken back and searched here: their entries in `results` are not theirs. */
  taken: Set<number> | null;
}

/**
 * Searches the files a walk lists, in this thread or on the host's search
 * threads, and hands the outcomes back in the order the files were added.
 *
 * The first files are searched here; once a search has many files, batches
 * go to other threads while this one walks on. A file is one name at a held
 * folder, and a folder with files in a batch must stay held until the batch
 * has settled: {@link retain} says when the walk may close it. While the
 * threads have work queued, this thread searches the next files itself,
 * between its walk's steps, so every core searches — until
 * {@link GREP_SLOW_FILES} of them in a row have taken longer than
 * {@link GREP_SLOW_FILE_MS} (a cold page cache: then the threads, started at
 * once if need be, take every later file). At most
 * {@link GREP_MAX_QUEUED_FILES} files are on the threads at once (each keeps
 * its folder held), and at most {@link GREP_MAX_PENDING_FILES} outcomes wait
 * to be delivered; once the results waiting fill a result, this
 * thread takes no more files (they could only be held, never shown). A batch whose thread failed is searched again here, its
 * folders still held.
 */
export class OrderedFileSearch {
  #host: Host;
  #options: OrderedFileSearchOptions;
  #scratch: { buffer: Uint8Array };
  #threads: FileSearchThreads | null = null;
  #threadsTried = false;
  #added = 0;
  #outcomes: OrderedOutcomes;
  #batch: Item[] = [];
  /** The batches on the threads, oldest first. */
  #flights: Flight[] = [];
  #inFlightFiles = 0;
  #holds = new FolderHolds();
  /** Asked between a large file's parts searched here: nothing more is handed over, or the call was aborted. */
  #ended = (): boolean => this.#outcomes.stopped || this.#options.signal?.aborted === true;
  /** Files searched here in a row that took longer than {@link GREP_SLOW_FILE_MS}. */
  #slowFiles = 0;
  /** Set at {@link GREP_SLOW_FILES} of them in a row: the threads take the rest. */
  #slowHere = false;

  /**
   * @param host The host whose files are searched.
   * @param options The search, the threads, and where outcomes go.
   */
  constructor(host: Host, options: OrderedFileSearchOptions) {
    this.#host = host;
    this.#options = options;
    this.#scratch = new Scratch(scratchBytes(host, SCRATCH_BYTES));
    this.#outcomes = new OrderedOutcomes(options.request.outputMode, options);
  }

  /** Whether a delivery returned `false`: no more files are wanted. */
  get stopped(): boolean {
    return this.#outcomes.stopped;
  }

  /**
   * Adds the next file of the walk.
   *
   * @param at Where the file is reached (one name at `folder`).
   * @param path Its path as results show it.
   * @param folder The held folder it is in.
   * @returns `false` once no more files are wanted.
   */
  add(at: string, path: string, folder: Folder): boolean | Promise<boolean> {
    if (this.#outcomes.stopped) return false;
    const item: Item = { at, path, folder, outcome: null, declined: false }; // one shape for every file
    this.#outcomes.push(item);
    const threads = this.#threadsFor(++this.#added);
    // Searched here at once: with no threads, or (they have work enough queued) between the walk's steps.
    const here = threads === null
      ? this.#batch.length === 0 // else files batched before the threads failed go first
      : !this.#slowHere && this.#batch.length === 0 && (threads.queued ?? this.#inFlightFiles) >= HELP_AFTER_FILES &&
        this.#outcomes.waiting <= GREP_MAX_PENDING_FILES &&
        // Results waiting for earlier files already fill one: more would only be held, never shown.
        this.#outcomes.pendingResults < this.#options.request.cap;
    if (!here) {
      if (threads === null) return this.#addAfterFailure(item);
      return this.#toThreads(item, threads);
    }
    const found = this.#searchHereSync(at);
    let outcome: FileOutcome | Promise<FileOutcome>;
    if (found !== null) {
      outcome = found;
    } else if (threads !== null && this.#host.readSync !== undefined) {
      // Declined by the synchronous read (over its bound, 1 MiB): searched here, a file of megabytes
      // would be one long step of this thread (Deno, kernel tree: up to 105 ms without a turn of the
      // event loop). The threads take it at once, alone in its batch (none was being filled).
      item.declined = true;
      return this.#toThreads(item, threads, true);
    } else {
      outcome = searchListedFileAsync(this.#host, at, this.#options.request, this.#ended);
    }
    if (outcome instanceof Promise) {
      return outcome.then(async (found) => {
        this.#outcomes.settle(item, found);
        await this.#outcomes.deliver();
        return !this.#outcomes.stopped;
      });
    }
    this.#outcomes.settle(item, outcome);
    // Most files: no promise at all (a walk adds tens of thousands).
    const delivered = this.#outcomes.deliver();
    return delivered === undefined ? !this.#outcomes.stopped : delivered.then(() => !this.#outcomes.stopped);
  }

  // A file searched in this thread, synchronously; null when the read declined it (over its bound).
  #searchHereSync(at: string): FileOutcome | null {
    const began = performance.now();
    const found = searchListedFileSync(this.#host, at, this.#options.request, this.#scratch);
    if (found === null) return null;
    // A synchronous search this slow waited for the disk (a cold page cache): no more of them here.
    // In a row: a cold cache makes file after file slow; warm, one large file or a pause now and then.
    this.#slowFiles = performance.now() - began > GREP_SLOW_FILE_MS ? this.#slowFiles + 1 : 0;
    // Once set it stays (a file searched here while the threads start could clear it otherwise).
    if (this.#slowFiles >= GREP_SLOW_FILES) this.#slowHere = true;
    return found;
  }

  // A file for the threads: batched, the batch sent once full (or at once when `now`).
  #toThreads(item: Item, threads: FileSearchThreads, now = false): boolean | Promise<boolean> {
    this.#holds.use(item.folder);
    this.#batch.push(item);
    if (now || this.#batch.length >= BATCH_FILES) this.#send(threads);
    if (this.#mustWait()) return this.#waitThenDeliver(threads);
    // Most files that go to the threads: no promise either.
    const delivered = this.#outcomes.deliver();
    return delivered === undefined ? !this.#outcomes.stopped : delivered.then(() => !this.#outcomes.stopped);
  }

  // A file added once the threads have failed, with files batched before that: those go first.
  async #addAfterFailure(item: Item): Promise<boolean> {
    await this.#flush(null);
    await this.#searchHere(item);
    await this.#outcomes.deliver();
    return !this.#outcomes.stopped;
  }

  // Whether a bound is passed, so the walk must wait for the oldest batches before it adds more.
  #mustWait(): boolean {
    return (this.#inFlightFiles + this.#batch.length > GREP_MAX_QUEUED_FILES ||
      this.#outcomes.waiting > GREP_MAX_PENDING_FILES ||
      // Results in already fill one once the batches before them are back: send no more.
      this.#outcomes.pendingResults >= this.#options.request.cap) && !this.#outcomes.stopped;
  }

  // Past a bound: waits for the oldest batches (their folders stay held meanwhile), then delivers.
  async #waitThenDeliver(threads: FileSearchThreads): Promise<boolean> {
    while (this.#mustWait()) {
      if (this.#flights.length === 0) this.#send(threads);
      if (this.#flights.length === 0) break;
      // The walk waits: this thread searches files of the batches in flight meanwhile, if it may.
      if (!(await this.#takeBack())) await this.#oldest();
      await this.#outcomes.deliver();
    }
    await this.#outcomes.deliver();
    return !this.#outcomes.stopped;
  }

  /**
   * When the walk is done with a folder: `null` when it may close it now,
   * else a promise that settles once no batch uses it any more.
   *
   * @param folder The folder.
   * @returns When it may be closed.
   */
  retain(folder: Folder): Promise<void> | null {
    return this.#holds.freed(folder);
  }

  /**
   * Searches what is left and delivers every outcome (unless stopped).
   *
   * @returns `false` when a delivery stopped the search.
   */
  async finish(): Promise<boolean> {
    if (!this.#outcomes.stopped) {
      await this.#flush(this.#threads !== null && this.#threads.ready ? this.#threads : null);
    }
    while (this.#flights.length > 0) {
      // The threads' last files: shared with this thread, which would otherwise wait for them idle.
      if (!(await this.#takeBack())) await this.#oldest();
      await this.#outcomes.deliver();
    }
    await this.#outcomes.deliver();
    this.close();
    return !this.#outcomes.stopped;
  }

  /**
   * Ends the search without delivering more: waits until no thread opens any
   * of its files (so every folder may be closed), then lets the threads go.
   *
   * @returns When nothing is in flight.
   */
  async settle(): Promise<void> {
    this.#outcomes.stop();
    for (const item of this.#batch) this.#holds.done(item.folder);
    this.#batch = [];
    this.close(); // threads skip the batches of a closed search
    while (this.#flights.length > 0) await Promise.race(this.#flights.map((flight) => flight.settled));
  }

  /** Lets the threads go (after {@link finish} or {@link settle}). */
  close(): void {
    this.#threads?.close();
  }

  #threadsFor(count: number): FileSearchThreads | null {
    if (!this.#threadsTried && (count > (this.#options.threadsAfter ?? GREP_THREADS_AFTER_FILES) || this.#slowHere)) {
      this.#threadsTried = true;
      const wanted = Math.min(this.#options.threads ?? GREP_MAX_THREADS, GREP_MAX_THREADS);
      if (wanted > 0) this.#threads = this.#host.searchThreads?.(this.#options.spec, wanted) ?? null;
    }
    return this.#threads !== null && this.#threads.ready ? this.#threads : null;
  }

  // Until a batch is back (at once if none is out), or the call is aborted (then it throws: the caller settles).
  async #oldest(): Promise<void> {
    const signal = this.#options.signal;
    throwIfAborted(signal);
    // None left (the last settled while a take-back gave the event loop a turn): a race of none never ends.
    if (this.#flights.length === 0) return;
    const settled = this.#flights.map((flight) => flight.settled);
    if (signal === undefined) return void (await Promise.race(settled));
    let stop!: () => void;
    const aborted = new Promise<void>((resolve) => (stop = resolve));
    signal.addEventListener("abort", stop, { once: true });
    try {
      await Promise.race([...settled, aborted]);
    } finally {
      signal.removeEventListener("abort", stop);
    }
    throwIfAborted(signal);
  }

  // The files batched so far: sent to the threads, or (none usable any more) searched here.
  async #flush(threads: FileSearchThreads | null): Promise<void> {
    if (threads !== null) return this.#send(threads);
    for (const item of this.#takeBatch()) {
      await this.#searchHere(item);
      this.#holds.done(item.folder);
    }
  }

  // Sends the files batched so far (or `batch`, alone) to the threads.
  #send(threads: FileSearchThreads, batch = this.#takeBatch()): void {
    if (batch.length === 0) return;
    const paths = batch.map((item) => item.at);
    this.#inFlightFiles += batch.length;
    const results = threads.search(paths);
    const flight: Flight = {
      results,
      settled: undefined as unknown as Promise<void>,
      items: batch,
      taken: null,
    };
    flight.settled = results.then(
      (outcomes) => {
        for (let i = 0; i < batch.length; i++) if (!flight.taken?.has(i)) this.#outcomes.settle(batch[i], outcomes[i]);
      },
      async () => {
        if (this.#outcomes.stopped) return; // closed: nobody wants these outcomes
        // The thread failed, and no thread opens these files now: search them here, folders still held.
        this.#threads = null;
        for (let i = 0; i < batch.length; i++) if (!flight.taken?.has(i)) await this.#searchHere(batch[i]);
      },
    ).finally(() => {
      this.#flights.splice(this.#flights.indexOf(flight), 1);
      this.#inFlightFiles -= batch.length;
      for (const item of batch) this.#holds.done(item.folder);
    });
    this.#flights.push(flight);
  }

  // One file searched here, through whichever read the host has, and its outcome settled.
  async #searchHere(item: Item): Promise<void> {
    const outcome = searchListedFile(this.#host, item.at, this.#options.request, this.#scratch, this.#ended);
    this.#outcomes.settle(item, outcome instanceof Promise ? await outcome : outcome);
  }

  #takeBatch(): Item[] {
    const batch = this.#batch;
    this.#batch = [];
    return batch;
  }

  /**
   * Takes files back from the batches in flight, oldest first (from each
   * one's end: its thread works from the front), and searches them here, for
   * one slice of this thread's time, then gives the event loop a turn.
   * Nothing is taken once the results waiting fill a result, or while this
   * thread's reads are slow (a cold page cache), or without a synchronous
   * read (this thread would search in one step a file of any size). A file
   * the synchronous read declines goes back to the threads, alone.
   *
   * @returns Whether any file was taken (else the caller waits for the threads).
   */
  async #takeBack(): Promise<boolean> {
    const threads = this.#threads;
    if (threads?.take === undefined || this.#host.readSync === undefined || this.#slowHere) return false;
    throwIfAborted(this.#options.signal);
    const began = Date.now();
    let took = false;
    // Synchronous to the end of the slice: no batch settles (nor a flight is removed) meanwhile.
    for (const flight of [...this.#flights]) {
      // A file this thread's read declined, alone in its batch: taking it back would only send it again.
      if (flight.items.length === 1 && flight.items[0].declined) continue;
      while (!this.#outcomes.stopped && !this.#slowHere && this.#outcomes.pendingResults < this.#options.request.cap) {
        const index = threads.take(flight.results);
        if (index < 0) break;
        took = true;
        (flight.taken ??= new Set()).add(index);
        const item = flight.items[index];
        const found = item.declined ? null : this.#searchHereSync(item.at);
        if (found !== null) this.#outcomes.settle(item, found);
        else {
          item.declined = true;
          this.#holds.use(item.folder); // held for the new batch (the old one lets it go when it settles)
          this.#send(threads, [item]);
        }
        if (Date.now() - began >= WALK_SLICE_MS) {
          await yieldTurn();
          return true;
        }
      }
    }
    return took;
  }
}
