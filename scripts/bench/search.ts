import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fastGlob from "fast-glob";
import { glob as tinyGlob } from "tinyglobby";
import { createFindFilesTool, createGrepTool, type GrepArguments, openWorkspace } from "../../mod.ts";
import { type BenchRow, measure } from "./row.ts";

const FILES = 20_000;

/**
 * find_files and grep on a generated tree of 20,000 files, against
 * tinyglobby and fast-glob (glob) and `rg` and `grep -r` (search; a baseline
 * not installed gives a row that says so). Medians per call.
 */
export async function benchSearch(): Promise<BenchRow[]> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-bench-search-")));
  try {
    generateTree(root);
    const workspace = await openWorkspace(root);
    // Ceilings raised so every tool reports everything, as the baselines do.
    const find = createFindFilesTool(workspace, { maxResults: FILES });
    const grep = createGrepTool(workspace, { maxResults: FILES * 40 });
    const rows: BenchRow[] = [];

    // Same work on every side: dot files included, paths relative to the root.
    const paddockGlob = await measure(() => find.execute({ pattern: "**/*.ts" }), 15);
    const tiny = await measure(() => tinyGlob("**/*.ts", { cwd: root, dot: true }), 15);
    const fast = await measure(() => fastGlob("**/*.ts", { cwd: root, dot: true }), 15);
    rows.push({
      name: `find_files("**/*.ts"), ${FILES} files`,
      paddockMs: paddockGlob,
      baselineMs: Math.min(tiny, fast),
      baseline: `fastest JS glob: ${tiny <= fast ? "tinyglobby" : "fast-glob"} (tinyglobby ${
        tiny.toFixed(1)
      } ms, fast-glob ${fast.toFixed(1)} ms)`,
      target: 1.2,
    });

    const searches: Array<{ label: string; paddock: GrepArguments; grepArgs: string[]; rgArgs: string[] }> = [
      {
        label: "literal 'needle'",
        paddock: { pattern: "needle", literal: true },
        grepArgs: ["-rnF", "needle", "."],
        rgArgs: ["-nF", "needle", "."],
      },
      {
        label: "regex 'fn[a-z]+\\([0-9]+\\)'",
        paddock: { pattern: "fn[a-z]+\\([0-9]+\\)" },
        grepArgs: ["-rnE", "fn[a-z]+\\([0-9]+\\)", "."],
        rgArgs: ["-n", "fn[a-z]+\\([0-9]+\\)", "."],
      },
    ];
    for (const search of searches) {
      const paddockMs = await measure(() => grep.execute(search.paddock), 7);
      for (const [program, args] of [["grep", search.grepArgs], ["rg", search.rgArgs]] as const) {
        const available = hasProgram(program);
        rows.push({
          name: `grep ${search.label}, ${FILES} files`,
          paddockMs,
          baselineMs: available ? await measure(() => run(program, args, root), 7) : NaN,
          baseline: available ? `${program} ${args.join(" ")}` : `${program} (not installed: no baseline)`,
          target: program === "grep" ? 2 : undefined,
        });
      }
    }
    return rows;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// 20 folders × 10 subfolders × 100 files, half .ts and half .js, about 1 KiB
// each; one file in 50 holds 'needle', one in 20 a call the regex matches.
function generateTree(root: string): void {
  const perFolder = FILES / 200;
  let index = 0;
  for (let top = 0; top < 20; top++) {
    for (let sub = 0; sub < 10; sub++) {
      const folder = path.join(root, `pkg${top}`, `mod${sub}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let i = 0; i < perFolder; i++, index++) {
        const lines: string[] = [];
        for (let line = 0; line < 30; line++) {
          lines.push(`export const value${line} = compute(${index}, ${line}); // item`);
        }
        if (index % 50 === 0) lines[7] = "const needle = 'found';";
        if (index % 20 === 0) lines[13] = `fncall(${index});`;
        fs.writeFileSync(path.join(folder, `file${i}.${i % 2 === 0 ? "ts" : "js"}`), lines.join("\n") + "\n");
      }
    }
  }
}

function hasProgram(name: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

// Runs a program to completion (exit 1, "no match", is fine), output discarded.
function run(program: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { cwd, maxBuffer: 256 * 1024 * 1024 }, (error) => {
      if (error && (error as { code?: unknown }).code !== 1) reject(error);
      else resolve();
    });
  });
}

// Run directly: print the rows.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchSearch()) {
    console.log(
      `${row.name.padEnd(48)} paddock ${row.paddockMs.toFixed(1).padStart(8)} ms  baseline ${
        row.baselineMs.toFixed(1).padStart(8)
      } ms  ratio ${(row.paddockMs / row.baselineMs).toFixed(2)}  ${row.baseline}`,
    );
  }
}
