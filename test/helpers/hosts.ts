import * as fs from "node:fs";
import * as path from "node:path";
import type { Workspace } from "../../mod.ts";
import { diskFixture, leftovers, OUTSIDE_SECRET, type Tree } from "./fixture.ts";
import { runtime } from "./runtime.ts";

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
  /** Removes the fixture. */
  cleanup(): Promise<void>;
}

/** A host the tool tests run on. */
export interface TestHost {
  /** `node`, `deno`, `bun` (the real disk through the runtime's host) or `memory`. */
  name: string;
  /** Whether symbolic links are available (they are on every host here). */
  symlinks: boolean;
  /** Builds a workspace holding `tree` (notation in fixture.ts). */
  open(tree: Tree): Promise<TestWorkspace>;
}

/** The real disk through the host of the runtime running the suite. */
export const DISK_HOST: TestHost = {
  name: runtime,
  symlinks: true,
  open: async (tree) => {
    const fixture = await diskFixture(tree);
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
      cleanup: () => Promise.resolve(fixture.cleanup()),
    };
  },
};

/** Every host the tool tables are replayed on. */
export const TEST_HOSTS: TestHost[] = [DISK_HOST];
