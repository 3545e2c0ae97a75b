import type { Folder } from "../fs/folder.ts";
import { yieldTurn } from "../fs/yield_turn.ts";
import { WALK_SLICE_MS } from "../fs/walk_workspace.ts";
import { resultsAdded } from "./search_batch.ts";
import type { FileOutcome, FileSearchRequest } from "./search_file.ts";

/** One file of a search, as its walk added it; its outcome once searched. */
export interface QueuedFile {
  /** Where the file is reached (one name at `folder`). */
  at: string;
  /** Its path as results show it. */
  path: string;
  /** The held folder it is in. */
  folder: Folder;
  outcome: FileOutcome | null;
  /** Set once the calling thread's synchronous read declined it (over its bound): only threads search it. */
  declined: boolean;
}

/** Takes one file's outcome; `false` when no more results are wanted. */
export type DeliverOutcome = (path: string, folder: Folder, outcome: FileOutcome) => boolean | Promise<boolean>;

// Whether a delivery that began at `began` has used its slice (the clock read every 256 outcomes).
const sliceUsed = (delivered: number, began: number): boolean =>
  (delivered & 255) === 0 && Date.now() - began >= WALK_SLICE_MS;

/**
 * A search's files in the order its walk added them, each outcome handed
 * over once it and every earlier one are in, whatever order they were
 * searched in: synchronously (no promise) for as long as each hand-over is
 * synchronous, in slices of {@link WALK_SLICE_MS} with a turn of the event
 * loop between them.
 */
export class OrderedOutcomes {
  #outputMode: FileSearchRequest["outputMode"];
  /** Whose `deliver` takes each outcome (called as its method: a class's stays the same function from search to search). */
  #to: { deliver: DeliverOutcome };
  #queue: QueuedFile[] = [];
  #head = 0;
  /** Results the outcomes in but not yet delivered add ({@link resultsAdded}). */
  #pendingResults = 0;
  /** The delivery under way when one could not finish synchronously (a promise, or a turn given). */
  #delivery: Promise<void> | undefined;
  /** Set while a synchronous delivery runs (a delivery that adds files must not deliver again inside it). */
  #delivering = false;
  #stopped = false;

  /**
   * @param outputMode What the search returns (how many results an outcome adds).
   * @param to Whose `deliver` takes each outcome, in order.
   */
  constructor(outputMode: FileSearchRequest["outputMode"], to: { deliver: DeliverOutcome }) {
    this.#outputMode = outputMode;
    this.#to = to;
  }

  /** Whether a delivery returned `false`, or {@link stop} was called: nothing more is handed over. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Files added and not yet handed over, searched or not. */
  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Results the outcomes in but not yet handed over add. */
  get pendingResults(): number {
    return this.#pendingResults;
  }

  /** Hands over nothing more. */
  stop(): void {
    this.#stopped = true;
  }

  /**
   * Adds the walk's next file, its outcome not in yet.
   *
   * @param file The file.
   */
  push(file: QueuedFile): void {
    this.#queue.push(file);
  }

  /**
   * Records a file's outcome (it is handed over by the next {@link deliver}).
   *
   * @param file A file added.
   * @param outcome What searching it found.
   */
  settle(file: QueuedFile, outcome: FileOutcome): void {
    file.outcome = outcome;
    this.#pendingResults += resultsAdded(outcome, this.#outputMode);
  }

  /**
   * Hands over the outcomes that are in, in order, up to the first still
   * out. A delivery under way (its promise) is waited for instead.
   *
   * @returns `undefined` when done synchronously, else when done.
   */
  deliver(): Promise<void> | undefined {
    if (this.#delivery !== undefined) return this.#delivery;
    if (this.#delivering) return undefined;
    this.#delivering = true;
    try {
      const began = Date.now();
      let delivered = 0;
      for (let file = this.#next(); file !== null; file = this.#next()) {
        const verdict = this.#to.deliver(file.path, file.folder, file.outcome!);
        if (verdict instanceof Promise) return this.#deliverAfter(verdict);
        if (verdict === false) this.#stopped = true;
        // Thousands in at once (a slow batch back, the files searched behind it): the rest after a turn
        // of the event loop (16,384 outcomes in one step held a cold first call's loop for 105 ms).
        if (sliceUsed(++delivered, began)) return this.#deliverAfter(yieldTurn().then(() => !this.#stopped));
      }
      this.#compact();
      return undefined;
    } finally {
      this.#delivering = false;
    }
  }

  // deliver() once a delivery returned a promise (or a turn was given): the rest, in order, a turn of the
  // event loop between slices, then done delivering.
  #deliverAfter(pending: Promise<boolean>): Promise<void> {
    const delivery = (async () => {
      try {
        if ((await pending) === false) this.#stopped = true;
        let began = Date.now();
        let delivered = 0;
        for (let file = this.#next(); file !== null; file = this.#next()) {
          if ((await this.#to.deliver(file.path, file.folder, file.outcome!)) === false) this.#stopped = true;
          if (sliceUsed(++delivered, began)) {
            await yieldTurn();
            began = Date.now();
          }
        }
        this.#compact();
      } finally {
        this.#delivery = undefined;
      }
    })();
    this.#delivery = delivery;
    return delivery;
  }

  // The next outcome in walk order, taken off the queue; null when it is not in yet, or the search stopped.
  #next(): QueuedFile | null {
    if (this.#head >= this.#queue.length || this.#stopped) return null;
    const file = this.#queue[this.#head];
    if (file.outcome === null) return null;
    this.#queue[this.#head++] = undefined as unknown as QueuedFile;
    this.#pendingResults -= resultsAdded(file.outcome, this.#outputMode);
    return file;
  }

  #compact(): void {
    if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }
}
