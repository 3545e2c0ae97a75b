import * as fs from "node:fs";
import { createCodingTools, executeToolCall, ToolRegistry, openWorkspace } from "./mod.ts";
import { createNodeHost } from "./src/hosts/node.ts";
const base = createNodeHost();
const kind = (s: fs.Stats) => s.isFile() ? "file" : s.isDirectory() ? "directory" : s.isSymbolicLink() ? "symlink" : "other";
const toStat = (s: fs.Stats) => ({ size: s.size, mode: s.mode & 0o7777, dev: s.dev, ino: s.ino, mtimeMs: s.mtimeMs, kind: kind(s) });
const fast = { ...base, realpath: async (p: string) => fs.realpathSync.native(p), lstat: async (p: string) => toStat(fs.lstatSync(p)), stat: async (p: string) => toStat(fs.statSync(p)),
  open: async (p: string, o: any) => { const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK); return {
    read: async (b: Uint8Array, pos: number) => fs.readSync(fd, b, 0, b.length, pos), stat: async () => toStat(fs.fstatSync(fd)), close: async () => fs.closeSync(fd), write: async () => {}, sync: async () => {} }; } } as any;
for (const [label, host] of [["async", base], ["sync-meta", fast], ["async", base], ["sync-meta", fast]] as const) {
  const reg = new ToolRegistry(createCodingTools(await openWorkspace("/tmp/mcpt/pw", { host })));
  for (let i = 0; i < 200; i++) await executeToolCall(reg, { id: "1", name: "read_file", arguments: { path: "file.txt" } });
  const t = performance.now();
  let r;
  for (let i = 0; i < 1000; i++) r = await executeToolCall(reg, { id: "1", name: "read_file", arguments: { path: "file.txt" } });
  console.log(label, ((performance.now() - t) / 1000).toFixed(3), r!.content.length);
}
