import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { libcAtRoute, listHeld, openAtHeld, readHeld, statHeld } from "../src/hosts/_libc_at.ts";
import { toStat } from "../src/hosts/_node_stat.ts";
import { procFdFolder } from "../src/hosts/_node_handles.ts";
import { runtime } from "./helpers/runtime.ts";
import { descriptorsUnder } from "./helpers/held_descriptors.ts";

// openAtHeld must open exactly what the /proc route opens (same object, same
// refusals with the same codes), never anything the /proc route would not
// reach, set close-on-exec, and leave no descriptor behind; listHeld must list
// exactly what listing the /proc route lists.
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
const FILE = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const FOLDER = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;
const PREFIX = procFdFolder();

let root: string;
let held: number;
const outside = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-openat-outside-"));

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-openat-"));
  fs.writeFileSync(path.join(root, "f.txt"), "inside\n");
  // Modified 50 ns before a whole millisecond: in floating point, seconds × 1000 plus the nanoseconds' part
  // rounds up to the next millisecond, where Deno's node:fs truncates (a stat made through libc must agree).
  fs.writeFileSync(path.join(root, "late.txt"), "late\n");
  execFileSync("touch", ["-m", "-d", "@1700000000.999999950", path.join(root, "late.txt")]);
  fs.mkdirSync(path.join(root, "sub"));
  fs.writeFileSync(path.join(root, "sub", "g.txt"), "deeper\n");
  fs.writeFileSync(path.join(outside, "secret.txt"), "outside\n");
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link"));
  fs.symlinkSync(outside, path.join(root, "folder-link"));
  fs.writeFileSync(path.join(root, "\uFFFD"), "replacement\n");
  // Names that are not valid UTF-8 (as bytes: Node decodes each bad byte as U+FFFD).
  fs.writeFileSync(Buffer.from(`${root}/bad-\xff\xfe-name`, "latin1"), "bad\n");
  fs.writeFileSync(Buffer.from(`${root}/caf\xc3\xa9-\xe2\x82`, "latin1"), "cut\n");
  execFileSync("mkfifo", [path.join(root, "fifo")]);
  held = fs.openSync(root, FOLDER);
});

afterAll(() => {
  fs.closeSync(held);
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const at = (name: string) => `${PREFIX}${held}/${name}`;
const identity = (fd: number) => {
  const stat = fs.fstatSync(fd);
  return `${stat.dev}:${stat.ino}`;
};
const codeOf = (open: () => number): string => {
  try {
    fs.closeSync(open());
    return "opened";
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
};
// The descriptors held at the fixture's two folders or below. Not every descriptor of the process: with the
// test files sharing a process, another file's pipes may close while a test counts (Bun, under load: 338
// before, 336 after).
const descriptors = () => [...descriptorsUnder(root)!, ...descriptorsUnder(outside)!.map((name) => `outside/${name}`)];
// Whether a file at a held folder is read through libc alone here (readHeld does it, rather than leaving it).
const readWholeRoute = () =>
  readHeld(`${PREFIX}${held}/f.txt`, PREFIX, FILE, 1 << 20, () => null) === undefined ? "runtime" : "libc";
// What an open reaches (its identity, then closed) or the code it fails with.
const identityOrCode = (open: () => number): string => {
  let fd: number;
  try {
    fd = open();
  } catch (error) {
    return String((error as { code?: unknown }).code ?? (error as Error).name);
  }
  try {
    return identity(fd);
  } finally {
    fs.closeSync(fd);
  }
};

describe(`[${runtime}] openat at a held folder`, () => {
  test("the route: libc on Node (koffi), Bun (bun:ffi) and Deno -A (Deno.dlopen); grep's files read through libc alone on each", () => {
    expect(libcAtRoute()).toBe("openat");
    expect(readWholeRoute()).toBe("libc");
  });

  test.each([
    ["a file", "f.txt", FILE],
    ["a folder", "sub", FOLDER],
    ["a name that is U+FFFD", "\uFFFD", FILE],
  ])("%s: the same object as the /proc route, close-on-exec", (_label, name, flags) => {
    const viaOpenAt = openAtHeld(at(name), PREFIX, flags);
    const viaProc = fs.openSync(at(name), flags);
    try {
      expect(identity(viaOpenAt)).toBe(identity(viaProc));
      const fdFlags = /flags:\s+([0-7]+)/.exec(fs.readFileSync(`/proc/self/fdinfo/${viaOpenAt}`, "utf8"))![1];
      expect(Number.parseInt(fdFlags, 8) & 0o2000000).toBe(0o2000000);
    } finally {
      fs.closeSync(viaOpenAt);
      fs.closeSync(viaProc);
    }
  });

  test.each([
    ["a link, no-follow", "link", FILE, "ELOOP"],
    ["a link to a folder, as a folder (O_DIRECTORY with O_NOFOLLOW: ENOTDIR)", "folder-link", FOLDER, "ENOTDIR"],
    ["a missing name", "missing", FILE, "ENOENT"],
    ["a file as a folder", "f.txt", FOLDER, "ENOTDIR"],
  ])("%s: refused with the /proc route's code", (_label, name, flags, code) => {
    const before = descriptors();
    expect(codeOf(() => openAtHeld(at(name), PREFIX, flags))).toBe(code);
    expect(codeOf(() => fs.openSync(at(name), flags))).toBe(code);
    expect(descriptors()).toEqual(before);
  });

  // Paths that are not one plain name at the folder go the /proc way, whose
  // answer is the reference: never an object the /proc route would not open.
  test.each([
    ["a leading slash (openat would ignore the folder)", `/${path.join(outside, "secret.txt").slice(1)}`],
    ["a doubled slash to an absolute path", `/${outside.slice(1)}/secret.txt`],
    ["two names", "sub/g.txt"],
    ["a dot", "."],
    ["two dots", ".."],
    ["a NUL byte", "f.txt\0x"],
  ])("%s: exactly what the /proc route gives", (_label, rest) => {
    const pathAt = `${PREFIX}${held}/${rest}`;
    const viaProc = identityOrCode(() => fs.openSync(pathAt, O_RDONLY | O_NONBLOCK));
    const viaOpenAt = identityOrCode(() => openAtHeld(pathAt, PREFIX, O_RDONLY | O_NONBLOCK));
    expect(viaOpenAt).toBe(viaProc);
    const secret = fs.openSync(path.join(outside, "secret.txt"), O_RDONLY);
    try {
      expect(viaOpenAt).not.toBe(identity(secret));
    } finally {
      fs.closeSync(secret);
    }
  });

  test.each([
    ["a leading zero", (fd: number) => `0${fd}`],
    ["no digits", () => ""],
    ["a sign", (fd: number) => `+${fd}`],
    ["eleven digits", () => "12345678901"],
  ])("a descriptor written with %s goes the /proc way", (_label, write) => {
    const pathAt = `${PREFIX}${write(held)}/f.txt`;
    const proc = codeOf(() => fs.openSync(pathAt, FILE));
    expect(codeOf(() => openAtHeld(pathAt, PREFIX, FILE))).toBe(proc);
  });

  test("a path outside /proc is opened as openSync opens it", () => {
    const fd = openAtHeld(path.join(root, "f.txt"), PREFIX, FILE);
    try {
      expect(fs.readFileSync(fd, "utf8")).toBe("inside\n");
    } finally {
      fs.closeSync(fd);
    }
  });

  const kinds = (entries: { name: string; kind: string }[]) =>
    entries.map(({ name, kind }) => `${name}:${kind}`).sort();
  // The runtime's listing, its kinds as the walk settles them: one it cannot tell ("other": Deno's FIFOs) by lstat.
  const runtimeListing = (at: string) =>
    fs.readdirSync(at, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      kind: entry.isFile()
        ? "file"
        : entry.isDirectory()
        ? "directory"
        : entry.isSymbolicLink()
        ? "symlink"
        : entry.isFIFO() || fs.lstatSync(`${at}/${entry.name}`).isFIFO()
        ? "fifo"
        : "other",
    }));

  test("a held folder is listed as the runtime lists its /proc route: names (invalid UTF-8 too), kinds, no . or ..", () => {
    const listed = listHeld(`${PREFIX}${held}`, PREFIX);
    expect(listed).not.toBeNull();
    expect(kinds(listed!)).toEqual(kinds(runtimeListing(`${PREFIX}${held}`)));
    expect(listed!.map((entry) => entry.name)).toContain("bad-\uFFFD\uFFFD-name");
    expect(listed!.find((entry) => entry.name === "fifo")?.kind).toBe("fifo");
    // Listed again from the start: the descriptor is rewound.
    expect(kinds(listHeld(`${PREFIX}${held}`, PREFIX)!)).toEqual(kinds(listed!));
  });

  test("a large folder (more than one read of entries) is listed whole", () => {
    const big = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-openat-big-"));
    const fd = fs.openSync(big, FOLDER);
    try {
      for (let i = 0; i < 1500; i++) fs.writeFileSync(path.join(big, `entry-with-a-long-name-${i}.txt`), "");
      const listed = listHeld(`${PREFIX}${fd}`, PREFIX);
      expect(listed).toHaveLength(1500);
      expect(kinds(listed!)).toEqual(kinds(runtimeListing(`${PREFIX}${fd}`)));
    } finally {
      fs.closeSync(fd);
      fs.rmSync(big, { recursive: true, force: true });
    }
  });

  test.each([
    ["a name after the descriptor", (fd: number) => `${fd}/sub`],
    ["a trailing slash", (fd: number) => `${fd}/`],
    ["a leading zero", (fd: number) => `0${fd}`],
  ])("a listing with %s is left to the runtime", (_label, write) => {
    expect(listHeld(`${PREFIX}${write(held)}`, PREFIX)).toBeNull();
  });

  test("a descriptor that is a file is left to the runtime, which refuses it", () => {
    const file = fs.openSync(path.join(root, "f.txt"), FILE);
    try {
      expect(listHeld(`${PREFIX}${file}`, PREFIX)).toBeNull();
    } finally {
      fs.closeSync(file);
    }
  });

  const readWhole = (name: string, maxBytes = 1 << 20) => {
    let seen: ReturnType<typeof toStat> | undefined;
    const scratch = new Uint8Array(4096);
    const done = readHeld(at(name), PREFIX, FILE, maxBytes, (stat) => {
      seen = stat;
      return stat.kind === "file" ? scratch.subarray(0, stat.size + 1) : null;
    });
    return { done, seen };
  };

  test.each(["f.txt", "late.txt", "\uFFFD", "sub"])(
    "%s read through libc alone: the bytes, and the stat node:fs gives",
    (name) => {
      const before = descriptors();
      const { done, seen } = readWhole(name);
      expect(descriptors()).toEqual(before);
      const fd = fs.openSync(at(name), FILE);
      try {
        const expected = toStat(fs.fstatSync(fd));
        expect(done).toBeDefined();
        expect(seen).toBe(done!.stat);
        // Exactly: a folder's birth time is part of its identity (Deno's node:fs gives whole milliseconds).
        expect(done!.stat).toEqual(expected);
        if (expected.kind === "file") expect(Buffer.from(done!.bytes).equals(fs.readFileSync(fd))).toBe(true);
        else expect(done!.bytes).toHaveLength(0);
      } finally {
        fs.closeSync(fd);
      }
    },
  );

  test.each(["f.txt", "late.txt", "sub", "fifo", "."])(
    `statHeld of %s's descriptor: ${
      runtime === "deno" ? "the stat node:fs gives, to the digit" : "left to the runtime (as fast)"
    }`,
    (name) => {
      const fd = fs.openSync(name === "." ? root : at(name), name === "f.txt" ? FILE : O_RDONLY | O_NONBLOCK);
      try {
        expect(statHeld(fd)).toEqual(runtime === "deno" ? toStat(fs.fstatSync(fd)) : undefined);
      } finally {
        fs.closeSync(fd);
      }
    },
  );

  test("statHeld of a closed descriptor is left to the runtime (undefined)", () => {
    const fd = fs.openSync(root, FOLDER);
    fs.closeSync(fd);
    expect(statHeld(fd)).toBeUndefined();
  });

  test("a FIFO is stat'ed, not read, and never blocks", () => {
    const { done } = readWhole("fifo");
    expect(done?.stat.kind).toBe("fifo");
    expect(done?.bytes).toHaveLength(0);
  });

  test("a file of maxBytes or more is declined unread; a link, a missing name and a path with two names are left to the runtime", () => {
    expect(readWhole("f.txt", 7).done).toBeNull(); // "inside\n" is 7 bytes
    expect(readWhole("f.txt", 8).done).toBeDefined();
    const before = descriptors();
    expect(readWhole("link").done).toBeUndefined();
    expect(readWhole("missing").done).toBeUndefined();
    expect(readHeld(`${PREFIX}${held}/sub/g.txt`, PREFIX, FILE, 1 << 20, () => new Uint8Array(16))).toBeUndefined();
    expect(descriptors()).toEqual(before);
  });

  test("a thousand opens and refusals leave no descriptor open", () => {
    const before = descriptors();
    for (let i = 0; i < 500; i++) {
      fs.closeSync(openAtHeld(at("f.txt"), PREFIX, FILE));
      expect(codeOf(() => openAtHeld(at("link"), PREFIX, FILE))).toBe("ELOOP");
    }
    expect(descriptors()).toEqual(before);
  });
});
