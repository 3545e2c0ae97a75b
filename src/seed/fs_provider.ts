/**
 * The seed documents' filesystem seam: a small interface over a remote box
 * (E2B, Daytona, a container, …) that `createFsTools` runs on.
 *
 * @module
 */

/** What an entry is, as a provider reports it. */
export type FsEntryType = "file" | "directory" | "symlink" | "other";

/** What {@link FsProvider.stat} reports. */
export interface FsStat {
  /** The entry's kind. */
  type: FsEntryType;
  /** Its size: bytes (or characters, as the provider counts them). */
  size: number;
}

/** One entry of {@link FsProvider.readdir}. */
export interface FsDirEntry {
  /** Its name: one path segment. */
  name: string;
  /** Its kind. */
  type: FsEntryType;
}

/** Options of {@link FsProvider.rm}. */
export interface FsRmOptions {
  /** Remove a folder and everything in it. @default false */
  recursive?: boolean;
}

/**
 * A filesystem the fs tools can run on. Every path it receives is
 * workspace-relative and already normalized by Paddock's path grammar
 * (`src/a.ts`, `.` for the root, `/` between segments): hostile paths are
 * refused before the provider is called. A failure may be a
 * `WorkspaceError` (its code is kept), an error with a Node-style `code`
 * (`ENOENT`, `EEXIST`, `ENOTDIR`, `EISDIR`, `EACCES`, `EPERM`, `ENOTEMPTY`,
 * mapped to Paddock's codes), or anything else (`IO_ERROR`).
 *
 * The provider is trusted to confine its own links: Paddock sees no more than
 * these six operations.
 *
 * @example See the README's "Coming from the seed documents" for a provider over a remote SDK.
 */
export interface FsProvider {
  /** The file's text. */
  readFile(path: string): Promise<string>;
  /** Creates or replaces a file (its folder exists: the tools create it first). */
  writeFile(path: string, content: string): Promise<void>;
  /** What is at `path`, or `undefined` when nothing is. */
  stat(path: string): Promise<FsStat | undefined>;
  /** The entries of a folder. */
  readdir(path: string): Promise<FsDirEntry[]>;
  /** Creates a folder and its missing parents. */
  mkdir(path: string): Promise<void>;
  /** Removes a file, a link (never its target) or, with `recursive`, a folder and its content. */
  rm(path: string, options?: FsRmOptions): Promise<void>;
}

const METHODS = ["readFile", "writeFile", "stat", "readdir", "mkdir", "rm"] as const;

/**
 * Whether `value` has the six methods of an {@link FsProvider}.
 */
export function isFsProvider(value: unknown): value is FsProvider {
  return typeof value === "object" && value !== null &&
    METHODS.every((name) => typeof (value as Record<string, unknown>)[name] === "function");
}
