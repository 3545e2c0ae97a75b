/**
 * edit_file against a raw read → replace → atomic write (temp file, fsync,
 * rename, fsync of the folder) done directly with node:fs: what the
 * confinement, identity checks, matching and diff cost on top of the same
 * durable write. Medians over a few hundred iterations; never asserted in tests.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createEditTool, openWorkspace } from "../../mod.ts";
import { type BenchRow, measure } from "./row.ts";

const SAMPLES = 300;

// A 200-line source file with one line that the benchmark toggles.
function sourceFile(): string {
  const lines = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${i}; // some padding text`);
  lines[100] = "export const toggle = 'A';";
  return lines.join("\n") + "\n";
}

async function rawEdit(file: string, oldString: string, newString: string): Promise<void> {
  const text = await fs.promises.readFile(file, "utf8");
  const at = text.indexOf(oldString);
  if (at < 0 || text.indexOf(oldString, at + 1) >= 0) throw new Error("raw edit: no unique match");
  const next = text.slice(0, at) + newString + text.slice(at + oldString.length);
  const temp = path.join(path.dirname(file), `.bench-tmp-${process.pid}`);
  const handle = await fs.promises.open(temp, "wx", 0o600);
  try {
    await handle.writeFile(next);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temp, file);
  const folder = await fs.promises.open(path.dirname(file), "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * Measures `edit_file` (one unique replacement in an 8 KB file, written
 * atomically) against the same edit done with raw node:fs calls.
 *
 * @returns One row: `edit_file` and its baseline, in median milliseconds.
 */
export async function benchEdit(): Promise<BenchRow[]> {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-bench-edit-")));
  try {
    const root = path.join(parent, "workspace");
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, "paddock.ts"), sourceFile());
    fs.writeFileSync(path.join(root, "raw.ts"), sourceFile());
    const edit = createEditTool(await openWorkspace(root));
    // Each call flips the toggle line, so every edit has exactly one match.
    const toggler = () => {
      let calls = 0;
      return (): [string, string] =>
        calls++ % 2 === 0 ? ["toggle = 'A'", "toggle = 'B'"] : ["toggle = 'B'", "toggle = 'A'"];
    };
    const paddockToggle = toggler();
    const paddockMs = await measure(
      async () => {
        const [oldString, newString] = paddockToggle();
        await edit.execute({ path: "paddock.ts", old_string: oldString, new_string: newString });
      },
      SAMPLES,
      20,
    );
    const rawToggle = toggler();
    const baselineMs = await measure(
      async () => {
        const [oldString, newString] = rawToggle();
        await rawEdit(path.join(root, "raw.ts"), oldString, newString);
      },
      SAMPLES,
      20,
    );
    return [{
      name: "edit_file: one replacement in an 8 KB file",
      paddockMs,
      baselineMs,
      baseline: "node:fs read, indexOf, temp file + fsync + rename + folder fsync",
    }];
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
  }
}
