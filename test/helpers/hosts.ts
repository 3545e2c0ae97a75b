import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import type { Workspace } from "../../mod.ts";
import { type MemoryHost, MemoryWorkspace } from "../../testing.ts";
import { diskFixture, leftovers, OUTSIDE_SECRET, type Tree } from "./fixture.ts";
import { heldBelow } from "./held_descriptors.ts";
import { runtime } from "./runtime.ts";
import { runsHostIndependentCases } from "./suite_pass.ts";

/**
 * A workspace built from a fixture tree on one host, with raw (non-Paddock)
 * access for assertions. Tool tests replay their tables over every
 * {@link TestHost} in {@link TEST_HOSTS}.
 */
export interface TestWorkspace {
  /** The workspace under test. */
  workspace: Workspace;
  /** A file's content read without Paddock, or `null` when it does not exist. */
  readRaw(relative: string): Promise<string | null>;
  /** Every entry in the workspace, relative, sorted; folders end in `/`; links not followed. */
  listAll(): Promise<string[]>;
  /** Leftover `.paddock-tmp-*` / `.paddock-node-*` files. */
  leftovers(): Promise<string[]>;
  /** Whether the fixture's outside folder still holds exactly `secret.txt` with the secret. */
  outsideIntact(): Promise<boolean>;
  /** Handles held below the root (files, folders): none may outlive a tool call. */
  openHandles(): Promise<string[]>;
  /** Asserts that no handle is held below the root, then removes the fixture. */
  cleanup(): Promise<void>;
}

/** What a test workspace is opened with. */
export interface TestWorkspaceOptions {
  /** `WorkspaceOptions.privatePaths`. @default [] */
  privatePaths?: readonly string[];
}

/** A host the tool tests run on. */
export interface TestHost {
  /** `node`, `deno`, `bun` (the real disk through the runtime's host) or `memory`. */
  name: string;
  /** Whether processes can run (`node_process`, `shell` through the host); false on the memory host, see MEMORY_HOST. */
  processes: boolean;
  /** Builds a workspace holding `tree` (notation in fixture.ts). */
  open(tree: Tree, options?: TestWorkspaceOptions): Promise<TestWorkspace>;
}

/** The real disk through the host of the runtime running the suite. */
export const DISK_HOST: TestHost = {
  name: runtime,
  processes: true,
  open: async (tree, options = {}) => {
    const fixture = await diskFixture(tree, options);
    return {
      workspace: fixture.workspace,
      readRaw: (relative) => {
        try {
          return Promise.resolve(fs.readFileSync(path.join(fixture.root, relative), "utf8"));
        } catch {
          return Promise.resolve(null);
        }
      },
      listAll: () =>
        Promise.resolve(
          fixture.listAll().filter((entry) => entry.startsWith("workspace/")).map((entry) =>
            entry.slice("workspace/".length)
          ).filter((entry) => entry !== ""),
        ),
      leftovers: () => Promise.resolve(leftovers(fixture.root)),
      outsideIntact: () => {
        const entries = fs.readdirSync(fixture.outside);
        const secret = fs.readFileSync(path.join(fixture.outside, "secret.txt"), "utf8");
        return Promise.resolve(entries.length === 1 && secret === OUTSIDE_SECRET);
      },
      openHandles: () => Promise.resolve(heldBelow(fixture.root) ?? []),
      cleanup: () => {
        const held = heldBelow(fixture.root) ?? [];
        fixture.cleanup();
        expect(held, "handles left open by the test's tool calls").toEqual([]);
        return Promise.resolve();
      },
    };
  },
};

/** Where MEMORY_HOST puts the fixture's outside folder, a sibling of the workspace root as on disk. */
export const MEMORY_OUTSIDE = "/outside";

/**
 * The in-memory host (`MemoryWorkspace`, root `/workspace`), with the
 * fixture's outside folder at `/outside` and a `/etc/passwd`, so links out
 * (relative or absolute) lead somewhere real, as on disk.
 *
 * The one place its differences from a disk are written down: it cannot run
 * processes (`processes: false`): `spawn` fails with `UNSUPPORTED`, so
 * `node_process` reports `SPAWN_FAILED`, and `shell` commands are answered by
 * the workspace's `exec` script; tests that need a real process check
 * `host.processes`. It also has no FIFOs or devices, and it stores permission
 * bits without enforcing them (as for root, which these tests run as).
 */
export const MEMORY_HOST: TestHost = {
  name: "memory",
  processes: false,
  open: (tree, options = {}) => Promise.resolve(memoryFixture(tree, options)),
};

/** A TestWorkspace over a new MemoryWorkspace holding `tree`, outside folder and `/etc/passwd` included (see MEMORY_HOST). */
export function memoryFixture(
  tree: Tree,
  options: TestWorkspaceOptions = {},
): TestWorkspace & { workspace: MemoryWorkspace } {
  const workspace = new MemoryWorkspace({ privatePaths: options.privatePaths ?? [] });
  addMemoryOutside(workspace);
  writeMemoryTree(workspace, tree);
  return memoryTestWorkspace(workspace);
}

/** Adds what every fixture has outside the workspace: `/outside/secret.txt` and `/etc/passwd`. */
export function addMemoryOutside(workspace: MemoryWorkspace): void {
  const host = workspace.host;
  host.mkdirSync(MEMORY_OUTSIDE);
  host.writeFileSync(`${MEMORY_OUTSIDE}/secret.txt`, OUTSIDE_SECRET);
  host.mkdirSync("/etc");
  host.writeFileSync("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n");
}

/** Writes `tree` (the notation of fixture.ts) into `workspace`, in order, as writeTree does on disk. */
export function writeMemoryTree(workspace: MemoryWorkspace, tree: Tree): void {
  const host = workspace.host;
  const abs = (relative: string) => workspace.hostPath(relative.split("/").filter((part) => part !== ""));
  const parentOf = (at: string) => at.slice(0, at.lastIndexOf("/")) || "/";
  for (const entry of tree) {
    const link = entry.split(" => ");
    if (link.length === 2) {
      const target = link[1].replace(/^@outside(?=\/|$)/, MEMORY_OUTSIDE).replace(/^@root(?=\/|$)/, workspace.root);
      host.mkdirSync(parentOf(abs(link[0])), { recursive: true });
      host.symlinkSync(target, abs(link[0]));
    } else if (entry.endsWith("/")) {
      host.mkdirSync(abs(entry), { recursive: true });
    } else {
      const [name, ...rest] = entry.split("=");
      host.mkdirSync(parentOf(abs(name)), { recursive: true });
      host.writeFileSync(abs(name), rest.length > 0 ? rest.join("=") : name);
    }
  }
}

/** Every entry below the memory host's folder `dir`, relative, sorted; folders end in `/`; links not followed. */
export function listMemory(host: MemoryHost, dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of host.readdirSync(relative ? `${dir}/${relative}` : dir)) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.kind === "directory") {
        out.push(child + "/");
        walk(child);
      } else out.push(child);
    }
  };
  walk("");
  return out.sort();
}

/** Raw access to a MemoryWorkspace (one that has its outside folder, see {@link addMemoryOutside}) as a TestWorkspace. */
export function memoryTestWorkspace(workspace: MemoryWorkspace): TestWorkspace & { workspace: MemoryWorkspace } {
  const host = workspace.host;
  const abs = (relative: string) => workspace.hostPath(relative.split("/").filter((part) => part !== ""));
  const listAll = () => listMemory(host, workspace.root);
  return {
    workspace,
    readRaw: (relative) => {
      try {
        // ignoreBOM keeps a byte order mark, as the disk host's readFileSync does.
        return Promise.resolve(
          new TextDecoder("utf-8", { ignoreBOM: true }).decode(host.readFileSync(abs(relative))),
        );
      } catch {
        return Promise.resolve(null);
      }
    },
    listAll: () => Promise.resolve(listAll()),
    leftovers: () => Promise.resolve(listAll().filter((entry) => /(^|\/)\.paddock-(tmp|node)-/.test(entry))),
    outsideIntact: () => {
      const entries = host.readdirSync(MEMORY_OUTSIDE);
      const secret = new TextDecoder().decode(host.readFileSync(`${MEMORY_OUTSIDE}/secret.txt`));
      return Promise.resolve(entries.length === 1 && entries[0].kind === "file" && secret === OUTSIDE_SECRET);
    },
    // The workspace holds its root (one folder handle) from first use.
    openHandles: () => Promise.resolve(Array.from({ length: Math.max(0, host.openHandles() - 1) }, () => "handle")),
    cleanup: () => {
      expect(host.openHandles(), "handles left open by the test's tool calls").toBeLessThanOrEqual(1);
      return Promise.resolve();
    },
  };
}

/**
 * Every host the tool tables are replayed on. The memory host is plain
 * TypeScript with no runtime API (tsconfig.core.json), so `npm test` replays
 * it in the Node pass only; a plain `vitest run` replays it on every runtime.
 */
export const TEST_HOSTS: TestHost[] = runsHostIndependentCases ? [DISK_HOST, MEMORY_HOST] : [DISK_HOST];
