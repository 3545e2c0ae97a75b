import * as fs from "node:fs";
import { describe, expect, test } from "vitest";
import { createWriteTool, openWorkspace } from "../mod.ts";
import { type Host, HostError, type HostFile } from "../host.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { diskFixture, leftovers } from "./helpers/fixture.ts";

type Fault = "open" | "write" | "sync" | "chmod" | "rename" | "dir-sync";

// Wraps the real host and fails one primitive of the atomic write.
function faultyHost(base: Host, fault: Fault): Host {
  const wrapFile = (file: HostFile): HostFile => ({
    ...file,
    write: fault === "write" ? () => Promise.reject(new HostError("EIO", "write")) : file.write,
    chmod: fault === "chmod" ? () => Promise.reject(new HostError("EPERM", "fchmod")) : file.chmod,
    sync: fault === "sync" ? () => Promise.reject(new HostError("EIO", "fsync")) : file.sync,
  });
  return {
    ...base,
    open: async (path, options) => {
      if (fault === "open" && options.createExclusive) throw new HostError("EACCES", "open");
      return wrapFile(await base.open(path, options));
    },
    openDir: async (path) => {
      const dir = await base.openDir(path);
      return fault === "dir-sync" ? { ...dir, sync: () => Promise.reject(new HostError("EIO", "fsync")) } : dir;
    },
    chmod: fault === "chmod" ? () => Promise.reject(new HostError("EPERM", "chmod")) : base.chmod,
    rename: async (from, to) => {
      if (fault === "rename") throw new HostError("EXDEV", "rename");
      await base.rename(from, to);
    },
  };
}

describe("write_file() under injected faults", () => {
  test.each<[Fault, string]>([
    ["open", "PERMISSION_DENIED"],
    ["write", "IO_ERROR"],
    ["sync", "IO_ERROR"],
    ["chmod", "PERMISSION_DENIED"],
    ["rename", "IO_ERROR"],
  ])("keeps the old target and leaves no temp file when %s fails", async (fault, code) => {
    const fixture = await diskFixture(["d/target.txt=old content"]);
    try {
      fs.chmodSync(fixture.abs("d/target.txt"), 0o666); // bits the umask (022) takes off at creation, so the chmod step runs
      const workspace = await openWorkspace(fixture.root, { host: faultyHost(createAutoHost(), fault) });
      const write = createWriteTool(workspace);
      await expect(write.execute({ path: "d/target.txt", content: "new content" })).rejects.toMatchObject({ code });
      expect(fs.readFileSync(fixture.abs("d/target.txt"), "utf8")).toBe("old content");
      expect(fs.statSync(fixture.abs("d/target.txt")).mode & 0o777).toBe(0o666);
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  test("reports a failed folder fsync after the rename", async () => {
    const fixture = await diskFixture(["target.txt=old"]);
    try {
      const workspace = await openWorkspace(fixture.root, { host: faultyHost(createAutoHost(), "dir-sync") });
      await expect(createWriteTool(workspace).execute({ path: "target.txt", content: "new" })).rejects.toMatchObject({
        code: "IO_ERROR",
      });
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  test("keeps the old target when aborted before the rename", async () => {
    const fixture = await diskFixture(["target.txt=old"]);
    try {
      const controller = new AbortController();
      const base = createAutoHost();
      // Abort while the temp file is being written.
      const host: Host = {
        ...base,
        open: async (path, options) => {
          const file = await base.open(path, options);
          return options.createExclusive ? { ...file, sync: () => (controller.abort(), file.sync()) } : file;
        },
      };
      const workspace = await openWorkspace(fixture.root, { host });
      const error = await createWriteTool(workspace).execute({ path: "target.txt", content: "new" }, {
        signal: controller.signal,
      }).catch((e) => e);
      expect((error as Error).name).toBe("AbortError");
      expect(fs.readFileSync(fixture.abs("target.txt"), "utf8")).toBe("old");
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  test("refuses when the target is swapped for a link between the walk and the rename", async () => {
    const fixture = await diskFixture(["target.txt=old"]);
    try {
      const base = createAutoHost();
      let swapped = false;
      const host: Host = {
        ...base,
        rename: (from, to) => base.rename(from, to),
        open: async (path, options) => {
          const file = await base.open(path, options);
          if (options.createExclusive && !swapped) {
            swapped = true;
            // Another process replaces the target with a link out of the workspace.
            fs.unlinkSync(fixture.abs("target.txt"));
            fs.symlinkSync(`${fixture.outside}/secret.txt`, fixture.abs("target.txt"));
          }
          return file;
        },
      };
      const workspace = await openWorkspace(fixture.root, { host });
      await expect(createWriteTool(workspace).execute({ path: "target.txt", content: "pwned" })).rejects.toMatchObject({
        code: "PATH_CHANGED",
      });
      expect(fs.readFileSync(`${fixture.outside}/secret.txt`, "utf8")).not.toContain("pwned");
      expect(fs.lstatSync(fixture.abs("target.txt")).isSymbolicLink()).toBe(true);
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });
});
