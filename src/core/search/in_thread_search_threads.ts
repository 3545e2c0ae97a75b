import type { FileSearchSpec, FileSearchThreads, Host } from "../../host.ts";
import { portableByteSearch } from "./byte_search.ts";
import { fileSearchRequest, searchListedFile, UNREADABLE } from "./search_batch.ts";
import type { FileOutcome } from "./search_file.ts";
import { Scratch } from "../fs/read_regular_file.ts";

/**
 * {@link FileSearchThreads} without threads, for a host that has none (the
 * memory host): each batch is searched in the calling thread on a later turn
 * of the event loop, so a batch's results arrive out of band, as a worker's
 * would, and grep's ordered scheduling is exercised all the same.
 *
 * @param host The host whose files are searched.
 * @param spec The search.
 * @returns The stand-in threads.
 */
export function inThreadSearchThreads(host: Host, spec: FileSearchSpec): FileSearchThreads {
  const request = fileSearchRequest(spec, host.byteSearch ?? portableByteSearch);
  const scratch = new Scratch(new Uint8Array(0));
  let queued = 0;
  // Each batch not yet settled: its next file to begin, and the end of those not taken back (the caller
  // takes from the end), as a worker's claim word has them.
  const batches = new Map<Promise<FileOutcome[]>, { front: number; end: number }>();
  return {
    ready: true,
    get queued() {
      return queued;
    },
    search(paths) {
      const left = { front: 0, end: paths.length };
      const results = (async () => {
        queued += paths.length;
        // A file taken back keeps this entry: the caller does not read it.
        const outcomes: FileOutcome[] = new Array(paths.length).fill(UNREADABLE);
        try {
          await new Promise((resolve) => setTimeout(resolve, 0));
          while (left.front < left.end) {
            const i = left.front++;
            const outcome = searchListedFile(host, paths[i], request, scratch);
            outcomes[i] = outcome instanceof Promise ? await outcome : outcome;
            queued--;
          }
        } finally {
          queued -= paths.length - left.front;
          left.end = left.front; // none is taken back any more
        }
        return outcomes;
      })();
      batches.set(results, left);
      const forget = () => batches.delete(results);
      results.then(forget, forget);
      return results;
    },
    take(results) {
      const left = batches.get(results);
      return left === undefined || left.front >= left.end ? -1 : --left.end;
    },
    close: () => {},
  };
}
