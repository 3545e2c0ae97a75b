import type { Folder } from "../fs/folder.ts";

interface FolderUse {
  pending: number;
  done: Promise<void>;
  release: () => void;
}

/**
 * The held folders whose files are out on other threads: a walk may close a
 * folder only once no thread opens a name at it any more.
 */
export class FolderHolds {
  #folders = new Map<Folder, FolderUse>();

  /**
   * Counts one more file of `folder` out.
   *
   * @param folder The folder.
   */
  use(folder: Folder): void {
    let use = this.#folders.get(folder);
    if (use === undefined) {
      let release!: () => void;
      const done = new Promise<void>((resolve) => (release = resolve));
      use = { pending: 0, done, release };
      this.#folders.set(folder, use);
    }
    use.pending++;
  }

  /**
   * Counts one file of `folder` back; at the last, the folder is free.
   *
   * @param folder The folder.
   */
  done(folder: Folder): void {
    const use = this.#folders.get(folder);
    if (use === undefined || --use.pending > 0) return;
    this.#folders.delete(folder);
    use.release();
  }

  /**
   * When `folder` is free: `null` when it is now, else a promise that settles once no file of it is out.
   *
   * @param folder The folder.
   * @returns When it may be closed.
   */
  freed(folder: Folder): Promise<void> | null {
    return this.#folders.get(folder)?.done ?? null;
  }
}
