import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createNodeProcessTool, createReadTool, createWriteTool, openWorkspace } from "../../mod.ts";
import { type BenchRow, measure, measurePair } from "./row.ts";

/** read_file, write_file and node_process against plain node:fs and a bare spawn. */
export async function benchCore(): Promise<BenchRow[]> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-bench-")));
  try {
    const workspace = await openWorkspace(root);
    fs.mkdirSync(path.join(root, "a/b"), { recursive: true });
    const content = "x".repeat(4096);
    fs.writeFileSync(path.join(root, "a/b/file.txt"), content);
    const read = createReadTool(workspace);
    const write = createWriteTool(workspace);
    const node = createNodeProcessTool(workspace, { timeoutMs: 10_000 });
    const rows: BenchRow[] = [];

    rows.push({
      name: "read_file 4 KiB, two folders deep",
      ...await measurePair(
        () => read.execute({ path: "a/b/file.txt" }),
        () => fs.promises.readFile(path.join(root, "a/b/file.txt"), "utf8"),
        3000,
      ),
      baseline: "fs.promises.readFile",
      target: 1.0,
    });

    let n = 0;
    const rawWrite = async (folderSync: boolean) => {
      const target = path.join(root, "a/b/raw.txt");
      const temp = `${target}.tmp-${n++}`;
      const handle = await fs.promises.open(temp, "wx", 0o600);
      await handle.writeFile(content);
      await handle.sync();
      await handle.close();
      await fs.promises.rename(temp, target);
      if (folderSync) {
        const folder = await fs.promises.open(path.dirname(target), "r");
        await folder.sync();
        await folder.close();
      }
    };
    const paddockWrite = () => write.execute({ path: "a/b/out.txt", content });
    rows.push({
      name: "write_file 4 KiB (atomic, durable)",
      ...await measurePair(paddockWrite, () => rawWrite(false), 500),
      baseline: "node:fs temp + write + fsync + rename",
    });
    rows.push({
      name: "write_file 4 KiB, same durability",
      ...await measurePair(paddockWrite, () => rawWrite(true), 500),
      baseline: "node:fs temp + write + fsync + rename + folder fsync",
      target: 1.15,
    });

    rows.push({
      name: "node_process empty script",
      paddockMs: await measure(() => node.execute({ source: "" }), 30, 3),
      baselineMs: await measure(
        () =>
          new Promise((resolve, reject) => {
            const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore", env: workspace.childEnvironment() });
            child.on("error", reject).on("exit", resolve);
          }),
        30,
        3,
      ),
      baseline: "spawn(process.execPath, ['-e', ''])",
      target: 1.2,
    });
    return rows;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
