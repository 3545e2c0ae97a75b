/**
 * Makes `make()`'s promise at the first call and hands the same one to every later call; a promise that
 * rejected is forgotten, so the next call makes it again (a probe that failed is tried again next time).
 *
 * @param make What to run once.
 * @returns The shared call.
 *
 * @example
 * ```ts
 * const probe = onceUnlessFailed(() => Promise.resolve("bwrap 0.8.0"));
 * await probe(); // runs it
 * await probe(); // the same promise
 * ```
 */
export function onceUnlessFailed<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
}
