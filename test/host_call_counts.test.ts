import { describe, expect, test } from "vitest";
import type { Host } from "../host.ts";
import { createEditTool, createReadTool, createWriteTool, openWorkspace } from "../mod.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { runtime } from "./helpers/runtime.ts";
import { readlinkSync } from "node:fs";

// Where the disk hosts reach held folders: this process's own fd folder in /proc, by its number.
const HELD_FOLDERS = `/proc/${readlinkSync("/proc/self")}/fd/`;

// Counts every host primitive a call makes (by name, with the paths it named),
// so the claims "one walk" and "one root check" are proved by counting work.
function countingHost(base: Host): { host: Host; calls: Array<[string, string]>; reset(): void } {
  const calls: Array<[string, string]> = [];
  const host = new Proxy(base, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push([String(key), typeof args[0] === "string" ? args[0] : ""]);
        return value.apply(target, args);
      };
    },
  });
  return { host, calls, reset: () => void (calls.length = 0) };
}

describe(`[${runtime}] host calls per tool call`, () => {
  test("edit_file walks once and checks the root once (the atomic write takes the resolved target)", async () => {
    const fixture = await diskFixture(["g/d/f.txt=hello world\n"]);
    try {
      const counting = countingHost(fixture.host);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      expect(await workspace.confinement()).toBe("handles");
      counting.reset();
      await createEditTool(workspace).execute({ path: "g/d/f.txt", old_string: "world", new_string: "there" });
      const names = counting.calls.map(([name]) => name);
      // One root check: one stat of the root entry and one lstat of the canonical root.
      expect(counting.calls.filter(([name, path]) => name === "stat" && path === workspace.rootEntry)).toHaveLength(1);
      // One walk: g and d each opened once, at their held parents.
      expect(names.filter((name) => name === "openDir")).toHaveLength(2);
      expect(names.filter((name) => name === "rename")).toHaveLength(1);
      // Every look-up after the root check went through a held folder, never a host path.
      const named = counting.calls.filter(([name, path]) =>
        path !== "" && name !== "stat" && !(name === "lstat" && path === workspace.root)
      );
      expect(named.filter(([, path]) => !path.startsWith(HELD_FOLDERS))).toEqual([]);
      expect(counting.calls.length).toBeLessThanOrEqual(16);
    } finally {
      fixture.cleanup();
    }
  });

  test("read_file and write_file two folders deep open each folder once and name nothing by host path", async () => {
    const fixture = await diskFixture(["g/d/f.txt=hello"]);
    try {
      const counting = countingHost(fixture.host);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      for (
        const run of [
          () => createReadTool(workspace).execute({ path: "g/d/f.txt" }),
          () => createWriteTool(workspace).execute({ path: "g/d/f.txt", content: "new" }),
        ]
      ) {
        counting.reset();
        await run();
        expect(counting.calls.filter(([name]) => name === "openDir")).toHaveLength(2);
        const named = counting.calls.filter(([name, path]) =>
          path !== "" && name !== "stat" && !(name === "lstat" && path === workspace.root)
        );
        expect(named.filter(([, path]) => !path.startsWith(HELD_FOLDERS))).toEqual([]);
      }
    } finally {
      fixture.cleanup();
    }
  });
});
