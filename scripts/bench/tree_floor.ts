// The floor under a real-tree search in this runtime: a bare `node:fs` loop that
// does only the system calls a search cannot do without, in one thread, with no
// .gitignore, no matching, no results and no event-loop turns:
//   `read`: every folder listed and every file opened, fstat'ed, read whole and
//           closed (what a grep that reads every file must do);
//   `list`: every folder opened and listed (what find_files must do).
// `route` is how names are reached:
//   `openat`: as Paddock's race-free walk reaches them on Node, one name at a held
//            folder's descriptor (libc's `openat`, and `getdents64` for a listing, through
//            `src/hosts/_libc_at.ts`; each folder opened no-follow, O_DIRECTORY);
//   `proc`:  the same through the folder's `/proc/self/fd/<fd>/<name>` (Paddock's route on Deno,
//            and on Node without `koffi`);
//   `plain`: by whole paths, as a tool that follows no handle does (not race-free).
// `tsx scripts/bench/tree_floor.ts <tree> <read|list> <openat|proc|plain>` warms up once,
// then prints one JSON line for the measured pass.
import * as fs from "node:fs";
import { libcAtRoute, listHeld, openAtHeld } from "../../src/hosts/_libc_at.ts";
import { procFdFolder } from "../../src/hosts/_node_handles.ts";

const [tree, work, route] = process.argv.slice(2);
if (!["read", "list"].includes(work) || !["openat", "proc", "plain"].includes(route)) {
  throw new Error("usage: tree_floor.ts <tree> <read|list> <openat|proc|plain>");
}
if (route === "openat" && libcAtRoute() !== "openat") throw new Error("no openat in this runtime (koffi missing?)");
const PREFIX = procFdFolder();
const held = (fd: number) => route === "openat" ? `${PREFIX}${fd}` : `/proc/self/fd/${fd}`;
const open = (path: string, flags: number) =>
  route === "openat" ? openAtHeld(path, PREFIX, flags) : fs.openSync(path, flags);
const list = (at: string) =>
  (route === "openat" ? listHeld(at, PREFIX) : null) ??
    fs.readdirSync(at, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      kind: entry.isDirectory() ? "directory" : entry.isFile() ? "file" : "other",
    }));
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;
const FILE_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const FOLDER_FLAGS = O_RDONLY | O_NOFOLLOW | O_DIRECTORY;
let buffer = Buffer.allocUnsafe(1 << 20);

// Lists the folder reached as `at` and everything below; returns the files seen.
function visit(at: string): number {
  let files = 0;
  for (const entry of list(at)) {
    if (entry.name === ".git") continue;
    const path = `${at}/${entry.name}`;
    if (entry.kind === "directory") {
      if (route === "plain") {
        files += visit(path);
        continue;
      }
      const fd = open(path, FOLDER_FLAGS);
      try {
        fs.fstatSync(fd);
        files += visit(held(fd));
      } finally {
        fs.closeSync(fd);
      }
    } else if (entry.kind === "file") {
      files++;
      if (work === "list") continue;
      const fd = open(path, FILE_FLAGS);
      try {
        const size = fs.fstatSync(fd).size;
        if (size + 1 > buffer.length) buffer = Buffer.allocUnsafe(size + 1);
        fs.readSync(fd, buffer, 0, size + 1, 0);
      } finally {
        fs.closeSync(fd);
      }
    }
  }
  return files;
}

function pass(): number {
  if (route === "plain") return visit(tree);
  const fd = fs.openSync(tree, FOLDER_FLAGS);
  try {
    return visit(held(fd));
  } finally {
    fs.closeSync(fd);
  }
}

pass();
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const start = performance.now();
const cpuStart = cpu();
const files = pass();
const ms = performance.now() - start;
const cpuMs = cpu() - cpuStart;
const rssMB = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ ms, cpuMs, rssMB, files }));
