import type { FileSearchSpec, FileSearchThreads, Host } from "../../host.ts";
import { portableByteSearch } from "./byte_search.ts";
import { fileSearchRequest, searchListedFile } from "./search_batch.ts";
import type { FileOutcome } from "./search_file.ts";

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
  const scratch = { buffer: new Uint8Array(0) };
  let queued = 0;
  return {
    ready: true,
    get queued() {
      return queued;
    },
    search: async (paths) => {
      queued += paths.length;
      const results: FileOutcome[] = [];
      try {
        await new Promise((resolve) => setTimeout(resolve, 0));
        for (const path of paths) {
          const outcome = searchListedFile(host, path, request, scratch);
          results.push(outcome instanceof Promise ? await outcome : outcome);
          queued--;
        }
      } finally {
        queued -= paths.length - results.length;
      }
      return results;
    },
    close: () => {},
  };
}
