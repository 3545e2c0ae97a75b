import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Host } from "../../src/host.ts";
import { openWorkspace, type Workspace } from "../../mod.ts";
import { createAutoHost } from "../../src/hosts/auto.ts";

/**
 * A fixture tree in a tiny notation (after Go's os.Root tests):
 * - `"d/"` a folder;
 * - `"f"` a file whose content is its own path (`"d/f"` holds `d/f`);
 * - `"f=text"` a file holding `text`;
 * - `"a => b"` a symbolic link `a` with target `b`; a target starting with
 *   `@outside/` points into the fixture's outside folder (absolute), `@root/`
 *   to the workspace root (absolute).
 */
export type Tree = readonly string[];

/** What every fixture has outside the workspace, to prove nothing there changes. */
export const OUTSIDE_SECRET = "SECRET-outside-the-workspace";

/** A real temp folder: `parent/workspace` (the root) and `parent/outside`. */
export interface DiskFixture {
  parent: string;
  root: string;
  outside: string;
  host: Host;
  workspace: Workspace;
  /** Absolute path of a workspace-relative path. */
  abs(relative: string): string;
  /** Every entry below `parent`, relative to it, sorted (links not followed). */
  listAll(): string[];
  /** Removes `parent` (only it). */
  cleanup(): void;
}

/** Writes `tree` below `root` (links may point to `outside`). */
export function writeTree(root: string, outside: string, tree: Tree): void {
  for (const entry of tree) {
    const link = entry.split(" => ");
    if (link.length === 2) {
      const target = link[1].replace(/^@outside\//, outside + path.sep).replace(/^@outside$/, outside)
        .replace(/^@root\//, root + path.sep).replace(/^@root$/, root);
      const at = path.join(root, link[0]);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.symlinkSync(target, at);
    } else if (entry.endsWith("/")) {
      fs.mkdirSync(path.join(root, entry), { recursive: true });
    } else {
      const [name, ...rest] = entry.split("=");
      const at = path.join(root, name);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, rest.length > 0 ? rest.join("=") : name);
    }
  }
}

/** Creates a temp parent with `workspace/` (holding `tree`) and `outside/secret.txt`, and opens the workspace. */
export async function diskFixture(
  tree: Tree = [],
  options: { host?: Host; privatePaths?: readonly string[] } = {},
): Promise<DiskFixture> {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-test-")));
  const root = path.join(parent, "workspace");
  const outside = path.join(parent, "outside");
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), OUTSIDE_SECRET);
  writeTree(root, outside, tree);
  const host = options.host ?? createAutoHost();
  const workspace = await openWorkspace(root, { host, privatePaths: options.privatePaths ?? [] });
  return {
    parent,
    root,
    outside,
    host,
    workspace,
    abs: (relative) => path.join(root, relative),
    listAll: () => listAll(parent),
    cleanup: () => fs.rmSync(parent, { recursive: true, force: true }),
  };
}

/** Every entry below `dir`, relative, sorted; folders end in `/`. */
export function listAll(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        out.push(child + "/");
        walk(child);
      } else out.push(child);
    }
  };
  walk("");
  return out.sort();
}

/** Leftover temp files (`.paddock-tmp-*`, `.paddock-node-*`) anywhere below `dir`. */
export function leftovers(dir: string): string[] {
  return listAll(dir).filter((entry) => /(^|\/)\.paddock-(tmp|node)-/.test(entry));
}

/** Whether a program is on PATH. */
export function hasProgram(name: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
