/**
 * libc's `openat(2)` and `getdents64(2)` for the Node and Deno hosts'
 * filesystem, where the runtime can call libc: a name at a held folder opened
 * relative to the folder's descriptor, and a held folder listed through its
 * own descriptor, instead of through its `/proc/<pid>/fd/<fd>` link.
 *
 * Both routes reach the same thing: the kernel resolves `/proc/<pid>/fd/<fd>`
 * to the folder the descriptor holds, then looks the name up in it, which is
 * what `openat(fd, name)` does; a listing of the link opens that folder again
 * and reads its entries, which is what `getdents64` on the descriptor reads.
 * The descriptor route skips the walk through `/proc` and the magic link
 * (which makes the kernel give up its lock-free lookup for the rest of the
 * path): an open and close of a file at a held folder took 3.3 µs against
 * 6.6 µs here on Node 20, 2.8 against 5.6 µs on Bun. None of Node, Deno or Bun
 * has either call in its own API; Node reaches libc through the `koffi`
 * package (an optional dependency, prebuilt per platform), Bun through
 * `bun:ffi`, Deno through `Deno.dlopen` (with `--allow-ffi`; never asked
 * for). Deno's `node:fs` takes only descriptors it opened itself (a close of
 * another fails with EBADF), so on Deno {@link openAtHeld} leaves every open
 * to `node:fs`; on every runtime grep's files are read through libc alone ({@link readHeld}).
 *
 * Linux on x64 and arm64 only (the `O_CLOEXEC` value, the `dirent64` layout
 * and the `/proc` route are Linux's); anywhere else, or when libc cannot be
 * reached, everything goes the `/proc` way as before. A failed call is never
 * reported from its errno: it is done again the `/proc` way, which raises the
 * runtime's own error (or succeeds, if the name appeared in between), so
 * error codes are exactly those of the `/proc` route.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { openSync } from "node:fs";
import { createRequire } from "node:module";
import type { EntryKind, HostDirEntry, HostStat, ReadHead } from "../host.ts";
import type { DenoFfiGlobal } from "./_deno_ffi.ts";
import { fillBuffer } from "./_fill_buffer.ts";

/** Linux's `O_CLOEXEC` (x64, arm64): the runtimes set it on every descriptor they open; so must this. */
const O_CLOEXEC = 0o2000000;

/** libc's calls as this runtime reaches them; each returns a negative number on failure. */
interface Libc {
  openat(dirfd: number, name: string, flags: number, mode: number): number;
  /** Reads entries into `into`; the bytes read, 0 at the end. */
  getdents64(fd: number, into: Uint8Array): number;
  /** Back to the first entry. */
  rewind(fd: number): number;
  /** `bytes` as a string, each byte one character (the bytes are ASCII). */
  latin1(bytes: Uint8Array, start: number, end: number): string;
  /**
   * Whether a descriptor from {@link Libc.openat} may be handed to the runtime's `node:fs` (Node, Bun);
   * where not (Deno), a file opened here is read and closed here too.
   */
  sharesDescriptors: boolean;
  /**
   * Whether the runtime's `node:fs` gives times in whole milliseconds (Deno: its `Date`s), so that a stat
   * made here is the same as one made there (a folder's birth time is part of its identity).
   */
  wholeMs: boolean;
  /**
   * Whether a held folder's stat is made here ({@link statHeld}): where the runtime's `fstatSync` costs
   * more than a call through FFI (Deno).
   */
  statsFolders: boolean;
  /** `statx(fd, "", AT_EMPTY_PATH, mask, into)`. */
  statx(fd: number, into: Uint8Array): number;
  /** `pread(fd, into, count, position)`: `count` at most `into.length`. */
  pread(fd: number, into: Uint8Array, count: number, position: number): number;
  close(fd: number): number;
}

declare const Deno: DenoFfiGlobal;

let libc: Libc | null | undefined;

// The runtime's way to libc, or null.
function loadLibc(): Libc | null {
  try {
    if (typeof Deno !== "undefined") {
      return Deno.build.os === "linux" && (Deno.build.arch === "x86_64" || Deno.build.arch === "aarch64")
        ? denoLibc(Deno)
        : null;
    }
    if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) return null;
    const require = createRequire(import.meta.url);
    return typeof (globalThis as { Bun?: unknown }).Bun !== "undefined" ? bunLibc(require) : koffiLibc(require);
  } catch {
    return null; // no FFI here (the package is missing or cannot load): the /proc route
  }
}

// Node's and Bun's Buffer have a latin1Slice (the fastest way from ASCII bytes to a string); else toString.
const latin1 = (bytes: Uint8Array, start: number, end: number): string =>
  (bytes as unknown as { latin1Slice?(start: number, end: number): string }).latin1Slice?.(start, end) ??
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1", start, end);

function koffiLibc(require: NodeRequire): Libc {
  const koffi = require("koffi") as {
    load(path: string): { func(signature: string): (...args: unknown[]) => number };
  };
  const lib = koffi.load("libc.so.6");
  const openat = lib.func("int openat(int dirfd, const char *path, int flags, int mode)");
  const getdents64 = lib.func("int getdents64(int fd, void *buf, size_t count)");
  const lseek = lib.func("int64 lseek(int fd, int64 offset, int whence)");
  const statx = lib.func("int statx(int dirfd, const char *path, int flags, unsigned int mask, void *buf)");
  const pread = lib.func("int pread(int fd, void *buf, size_t count, int64 offset)");
  const close = lib.func("int close(int fd)");
  return {
    openat: (dirfd, name, flags, mode) => openat(dirfd, name, flags, mode),
    getdents64: (fd, into) => getdents64(fd, into, into.length),
    rewind: (fd) => lseek(fd, 0, 0),
    latin1,
    sharesDescriptors: true,
    wholeMs: false,
    statsFolders: false,
    statx: (fd, into) => statx(fd, "", AT_EMPTY_PATH, STATX_WANTED, into),
    pread: (fd, into, count, position) => pread(fd, into, count, position),
    close: (fd) => close(fd),
  };
}

/** The symbols as `bun:ffi` and `Deno.dlopen` give them: strings go in as NUL-terminated bytes. */
interface ByteSymbols {
  openat(dirfd: number, path: Uint8Array, flags: number, mode: number): number;
  getdents64(fd: number, buffer: Uint8Array, count: Wide): number;
  lseek(fd: number, offset: Wide, whence: number): number;
  statx(dirfd: number, path: Uint8Array, flags: number, mask: number, into: Uint8Array): number;
  pread(fd: number, into: Uint8Array, count: Wide, offset: Wide): number;
  close(fd: number): number;
}

/** A 64-bit argument (`size_t`, `off_t`) as the runtime's FFI takes it best: see {@link libcOf}. */
type Wide = number | bigint;

// The argument and result types of ByteSymbols, in one runtime's words: [i32, pointer, u64 / usize, i64, lseek's result].
function byteSymbolTypes(i32: string, pointer: string, size: string, i64: string, offset: string) {
  return {
    openat: [[i32, pointer, i32, "u32"], i32],
    getdents64: [[i32, pointer, size], i32],
    lseek: [[i32, i64, i32], offset],
    statx: [[i32, pointer, i32, "u32", pointer], i32],
    pread: [[i32, pointer, size, i64], i32],
    close: [[i32], i32],
  } as const;
}

/**
 * The {@link Libc} of `bun:ffi` or `Deno.dlopen` symbols. `wide` gives a 64-bit
 * argument: Bun takes a number; Deno is given a BigInt, since its optimized
 * call of a 64-bit parameter checks for one. Given a number, a function that
 * makes such a call was deoptimized ("not a BigInt") and optimized again over
 * and over, for the life of the process: on the Go tree a warm grep's every
 * call spent 40-60 ms of CPU on V8's compiler threads, and searchText,
 * readHeld and the byte search ran mostly unoptimized. A BigInt per call costs
 * 0.05 us; the loop cost 0.13 us a call before its compiles.
 */
function libcOf(
  symbols: ByteSymbols,
  { sharesDescriptors, wholeMs, statsFolders, wide }:
    & Pick<Libc, "sharesDescriptors" | "wholeMs" | "statsFolders">
    & { wide(value: number): Wide },
): Libc {
  return {
    openat: (dirfd, name, flags, mode) => symbols.openat(dirfd, cString(name), flags, mode),
    getdents64: (fd, into) => symbols.getdents64(fd, into, wide(into.length)),
    rewind: (fd) => symbols.lseek(fd, wide(0), 0),
    latin1,
    sharesDescriptors,
    wholeMs,
    statsFolders,
    statx: (fd, into) => symbols.statx(fd, EMPTY, AT_EMPTY_PATH, STATX_WANTED, into),
    pread: (fd, into, count, position) => symbols.pread(fd, into, wide(count), wide(position)),
    close: (fd) => symbols.close(fd),
  };
}

function bunLibc(require: NodeRequire): Libc {
  const ffi = require("bun:ffi") as {
    dlopen(path: string, symbols: Record<string, { args: readonly string[]; returns: string }>): {
      symbols: ByteSymbols;
    };
  };
  const types = Object.entries(byteSymbolTypes("i32", "ptr", "u64", "i64", "i64_fast"));
  const { symbols } = ffi.dlopen(
    "libc.so.6",
    Object.fromEntries(types.map(([name, [args, returns]]) => [name, { args, returns }])),
  );
  return libcOf(symbols, {
    sharesDescriptors: true,
    wholeMs: false,
    statsFolders: false,
    wide: (value) => value,
  });
}

// Deno: with the FFI permission only (the handles route needs --allow-all anyway). Its `node:fs` takes only
// descriptors it opened itself (a close of another fails with EBADF), so a file opened here is read and closed
// here (`readHeld`), and `openAtHeld` leaves its opens to `node:fs`.
function denoLibc(deno: NonNullable<typeof Deno>): Libc | null {
  if (deno.permissions.querySync?.({ name: "ffi" }).state !== "granted") return null;
  const types = Object.entries(byteSymbolTypes("i32", "buffer", "usize", "i64", "i32"));
  const { symbols } = deno.dlopen(
    "libc.so.6",
    Object.fromEntries(types.map(([name, [parameters, result]]) => [name, { parameters: [...parameters], result }])),
  );
  return libcOf(symbols as unknown as ByteSymbols, {
    sharesDescriptors: false,
    wholeMs: true,
    statsFolders: true,
    wide: BigInt,
  });
}

const AT_EMPTY_PATH = 0x1000;
/** STATX_TYPE | MODE | NLINK | UID | GID | ATIME | MTIME | CTIME | INO | SIZE | BLOCKS (STATX_BASIC_STATS), BTIME. */
const STATX_WANTED = 0x7ff | 0x800;
const STATX_BTIME = 0x800;
const EMPTY = new Uint8Array(1);

const encoder = new TextEncoder();
/** The first size of the buffer a name is passed to libc in (a longer name gets a larger one). */
const NAME_BUFFER_BYTES = 1024;
let nameBytes = new Uint8Array(NAME_BUFFER_BYTES);

// A NUL-terminated UTF-8 copy of `text` (which holds no NUL: checked by the caller), valid until the next call.
function cString(text: string): Uint8Array {
  if (text.length * 3 + 1 > nameBytes.length) nameBytes = new Uint8Array(text.length * 3 + 1);
  const { written } = encoder.encodeInto(text, nameBytes);
  nameBytes[written] = 0;
  return nameBytes;
}

function loaded(): Libc | null {
  if (libc === undefined) libc = loadLibc();
  return libc;
}

/**
 * Which way names at held folders are opened and held folders listed in this
 * runtime and thread: `openat` (libc reached, see the module) or `proc`
 * (through `/proc/<pid>/fd/<fd>`).
 *
 * @returns The route.
 */
export function libcAtRoute(): "openat" | "proc" {
  return loaded() === null ? "proc" : "openat";
}

/**
 * Opens `path` as `openSync(path, flags, mode)` does; a path that is one
 * name at a held folder (`<procFdFolder><fd>/<name>`, the name without `/`)
 * is opened with `openat` on that descriptor where the runtime can (see the module).
 *
 * @param path The path.
 * @param procFdFolder The host's `/proc/<pid>/fd/` (with its trailing slash).
 * @param flags The open flags (`O_CLOEXEC` is added).
 * @param mode The mode of a created file.
 * @returns The descriptor.
 * @throws The runtime's own error of `openSync`, when the open fails.
 */
export function openAtHeld(path: string, procFdFolder: string, flags: number, mode = 0o666): number {
  const calls = loaded();
  const name = calls === null || !calls.sharesDescriptors ? -1 : heldNameAt(path, procFdFolder);
  if (name > 0) {
    const fd = calls!.openat(
      Number(path.slice(procFdFolder.length, name - 1)),
      path.slice(name),
      flags | O_CLOEXEC,
      mode,
    );
    if (fd >= 0) return fd;
  }
  return openSync(path, flags, mode);
}

const DIRENT_KINDS: Record<number, EntryKind> = {
  1: "fifo",
  2: "char-device",
  4: "directory",
  6: "block-device",
  8: "file",
  10: "symlink",
  12: "socket",
};
const decoder = new TextDecoder();
/** The buffer one `getdents64` call fills: a few hundred entries; a larger folder takes several calls. */
const LISTING_BUFFER_BYTES = 32_768;
let entryBytes: Uint8Array | undefined;

/**
 * The entries of a held folder named as its descriptor
 * (`<procFdFolder><fd>`, nothing after it), read with `getdents64` on that
 * descriptor where the runtime can (see the module), then rewound (a folder is
 * held only by the walk that opened it, and listed on one thread): what
 * listing the path gives (`.` and `..` left out, names decoded as UTF-8 with
 * U+FFFD for invalid bytes, kinds from the listing), in the listing's order.
 *
 * @param path The path.
 * @param procFdFolder The host's `/proc/<pid>/fd/` (with its trailing slash).
 * @returns The entries, or `null`: list `path` the runtime's way.
 */
export function listHeld(path: string, procFdFolder: string): HostDirEntry[] | null {
  if (!path.startsWith(procFdFolder)) return null;
  const calls = loaded();
  if (calls === null || descriptorEnd(path, procFdFolder.length) !== path.length) return null;
  const fd = Number(path.slice(procFdFolder.length));
  entryBytes ??= Buffer.alloc(LISTING_BUFFER_BYTES);
  const bytes = entryBytes;
  const entries: HostDirEntry[] = [];
  // A held folder's own offset is at its start: it is only ever read here, and rewound after.
  let moved = false;
  try {
    for (;;) {
      const count = calls.getdents64(fd, bytes);
      if (count < 0) return null;
      if (count === 0) return entries;
      moved = true;
      addEntries(calls, bytes, count, entries);
    }
  } finally {
    if (moved) calls.rewind(fd);
  }
}

// The entries of one getdents64 read (`count` bytes of `bytes`), added to `entries` but `.` and `..`. Each loop
// is a function of its own: as loops nested in listHeld, Deno's V8 compiled the innermost on its own (on-stack
// replacement) and threw that code away at every exit from it, about 20 times per search of the Go tree.
function addEntries(calls: Libc, bytes: Uint8Array, count: number, entries: HostDirEntry[]): void {
  // struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[] (NUL-terminated).
  for (let at = 0; at < count;) {
    const length = bytes[at + 16] | (bytes[at + 17] << 8);
    const type = bytes[at + 18];
    const start = at + 19;
    const end = nameEnd(bytes, start);
    at += length;
    if (bytes[start] === DOT && (end === start + 1 || (end === start + 2 && bytes[start + 1] === DOT))) continue;
    const name = isAscii(bytes, start, end)
      ? calls.latin1(bytes, start, end)
      : decoder.decode(bytes.subarray(start, end));
    entries.push({ name, kind: DIRENT_KINDS[type] ?? "other" });
  }
}

// Where the NUL-terminated name at `start` ends.
function nameEnd(bytes: Uint8Array, start: number): number {
  let end = start;
  while (bytes[end] !== 0) end++;
  return end;
}

function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) if (bytes[at] >= 0x80) return false;
  return true;
}

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * Where the descriptor written at `from` ends: its digits as the route writes
 * them (no leading zero, at most ten, at most 2^31 - 1). -1 when there are none.
 */
function descriptorEnd(path: string, from: number): number {
  let value = 0;
  let at = from;
  for (; at < path.length; at++) {
    const code = path.charCodeAt(at);
    if (code < 0x30 || code > 0x39) break;
    if (at > from && value === 0) return -1; // a leading zero
    value = value * 10 + (code - 0x30);
    if (at - from >= 10 || value > 0x7fffffff) return -1;
  }
  return at === from ? -1 : at;
}

/**
 * Where the name starts in `path` when it is `<procFdFolder><fd>/<name>`
 * with the descriptor as {@link descriptorEnd} reads it and one plain name
 * ({@link isPlainName}); else -1 (the /proc way).
 */
function heldNameAt(path: string, procFdFolder: string): number {
  if (!path.startsWith(procFdFolder)) return -1;
  const end = descriptorEnd(path, procFdFolder.length);
  return end > 0 && path.charCodeAt(end) === SLASH && isPlainName(path, end + 1) ? end + 1 : -1;
}

/**
 * Whether `path` from `from` on is one plain name: not empty, no `/`
 * (openat ignores the descriptor for a name that starts with one, where the
 * /proc route stays below it), not `.` or `..`, no NUL (it would end the C
 * string early). Anything else goes the /proc way.
 */
function isPlainName(path: string, from: number): boolean {
  const length = path.length - from;
  if (length <= 0 || path.indexOf("/", from) >= 0 || path.indexOf("\0", from) >= 0) return false;
  return !(path.charCodeAt(from) === DOT && (length === 1 || (length === 2 && path.charCodeAt(from + 1) === DOT)));
}

/** What {@link readHeld} read: the file's stat and its bytes (a view of the buffer `into` gave). */
export interface HeldRead {
  stat: HostStat;
  bytes: Uint8Array;
  /** Set when `head.stop` ended the read: `bytes` are the head alone. */
  stopped?: true;
}

const S_IFMT = 0o170000;
const FILE_KINDS: Record<number, EntryKind> = {
  0o010000: "fifo",
  0o020000: "char-device",
  0o040000: "directory",
  0o060000: "block-device",
  0o100000: "file",
  0o120000: "symlink",
  0o140000: "socket",
};
const NOTHING = new Uint8Array(0);
/** struct statx is 256 bytes. */
const STATX_BYTES = 256;
let statBytes: Uint8Array | undefined;
let statWords: Uint32Array | undefined;
let statSigned: Int32Array | undefined;

/**
 * Opens, stats, reads and closes one name at a held folder entirely through
 * libc (`openat`, `statx`, `pread`, `close`), as {@link Host.readSync} does
 * through the runtime (which Deno's `node:fs` could not do with a descriptor
 * opened here, and Node's does with a `Stats` object per file). The same steps in the same order: `into`
 * sees the stat before anything is read (its `null` reads nothing); a file of
 * `maxBytes` or more, or a buffer longer than that, is declined; with `head`, a
 * buffer longer than `head.bytes` is read that far first, and `head.stop` may end the read there.
 *
 * @param path One name at a held folder (`<procFdFolder><fd>/<name>`).
 * @param procFdFolder The host's `/proc/<pid>/fd/`.
 * @param flags The open flags (`O_CLOEXEC` is added).
 * @param maxBytes The largest read done.
 * @param into Gives the buffer to read into, from the stat.
 * @param head A look at the first bytes of a long read. @default undefined
 * @returns What was read; `null` when declined (read the long way); `undefined`
 * when not done here (no libc, not one name at a held folder, or a call failed):
 * read it the runtime's way, which gives the runtime's own error.
 */
export function readHeld(
  path: string,
  procFdFolder: string,
  flags: number,
  maxBytes: number,
  into: (stat: HostStat) => Uint8Array | null,
  head?: ReadHead,
): HeldRead | null | undefined {
  const calls = loaded();
  const name = heldNameAt(path, procFdFolder);
  if (calls === null || name < 0) return undefined;
  const fd = calls.openat(Number(path.slice(procFdFolder.length, name - 1)), path.slice(name), flags | O_CLOEXEC, 0);
  if (fd < 0) return undefined;
  try {
    statBytes ??= new Uint8Array(STATX_BYTES);
    if (calls.statx(fd, statBytes) !== 0) return undefined;
    const stat = statOf(statBytes, calls.wholeMs);
    if (stat.kind === "file" && stat.size >= maxBytes) return null;
    const buffer = into(stat);
    if (buffer === null) return { stat, bytes: NOTHING };
    if (buffer.length > maxBytes) return null;
    // A read at offset 0 (most files: the whole file at once) makes no view.
    const filled = fillBuffer(
      (into, offset, count) => calls.pread(fd, offset === 0 ? into : into.subarray(offset), count, offset),
      buffer,
      stat.size,
      head,
    );
    if (filled === null) return undefined;
    const bytes = buffer.subarray(0, filled.length);
    return filled.stopped ? { stat, bytes, stopped: true } : { stat, bytes };
  } finally {
    calls.close(fd);
  }
}

/**
 * The stat of an open descriptor through libc's `statx` (as {@link readHeld}
 * stats a file), on Deno: its `node:fs` `fstatSync` made a `FileInfo` and a
 * `Stats` object per call, 15% of the calling thread's time in a search of
 * the Go tree, where most of it opens and stats folders. Node's and Bun's
 * `fstatSync` are as fast as a call through FFI (on Node, measured slower by
 * FFI: a warm search of the Go tree +5% CPU), so there it is left to them.
 *
 * @param fd The descriptor.
 * @returns Its stat; `undefined` when not done here (not Deno, no libc, or the
 * call failed): stat it the runtime's way, which gives the runtime's own error.
 */
export function statHeld(fd: number): HostStat | undefined {
  const calls = loaded();
  if (calls === null || !calls.statsFolders) return undefined;
  statBytes ??= new Uint8Array(STATX_BYTES);
  return calls.statx(fd, statBytes) === 0 ? statOf(statBytes, calls.wholeMs) : undefined;
}

// struct statx (the same on every Linux architecture): u32 stx_mask @0, u16 stx_mode @28, u64 stx_ino @32,
// u64 stx_size @40, struct statx_timestamp (s64 tv_sec, u32 tv_nsec, s32) stx_btime @80, stx_mtime @112,
// u32 stx_dev_major @136, u32 stx_dev_minor @140. Read through 32-bit views made once (x64 and arm64 are
// little-endian): no DataView and no BigInt per file. A 64-bit number is its two halves, added as
// Number(BigInt) would round it.
function statOf(bytes: Uint8Array, wholeMs: boolean): HostStat {
  if (statWords?.buffer !== bytes.buffer) {
    statWords = new Uint32Array(bytes.buffer, bytes.byteOffset, STATX_BYTES / 4);
    statSigned = new Int32Array(bytes.buffer, bytes.byteOffset, STATX_BYTES / 4);
  }
  const words = statWords;
  const signed = statSigned!;
  const mode = words[7] & 0xffff;
  const major = words[34];
  const minor = words[35];
  return {
    kind: FILE_KINDS[mode & S_IFMT] ?? "other",
    size: u64At(words, 10),
    mode: mode & 0o7777,
    // st_dev as glibc's makedev builds it from statx's two numbers, which is what node:fs reports.
    dev: (major & 0xfff) * 0x100 + (major - (major & 0xfff)) * 0x100000000 + (minor & 0xff) +
      (minor - (minor & 0xff)) * 0x1000,
    ino: u64At(words, 8),
    mtimeMs: msAt(words, signed, 28, wholeMs),
    birthtimeMs: words[0] & STATX_BTIME ? msAt(words, signed, 20, wholeMs) : 0,
  };
}

// The unsigned 64-bit number at 32-bit word `at`, from its two halves.
function u64At(words: Uint32Array, at: number): number {
  return words[at + 1] * 0x100000000 + words[at];
}

// The statx_timestamp at word `at` in milliseconds: as node:fs computes them, or whole ones (`Libc.wholeMs`),
// added as integers: in floating point, a time within 122 ns of the next millisecond rounds up to it, where
// Deno's node:fs truncates (a folder's identity then differed, about once in 8,000 folders).
function msAt(words: Uint32Array, signed: Int32Array, at: number, whole: boolean): number {
  const seconds = signed[at + 1] * 0x100000000 + words[at];
  const nanoseconds = words[at + 2];
  return whole ? seconds * 1000 + Math.floor(nanoseconds / 1e6) : seconds * 1000 + nanoseconds / 1e6;
}
