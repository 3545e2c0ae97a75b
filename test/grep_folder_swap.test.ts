import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createGrepTool, openWorkspace } from "../mod.ts";
import type { Host } from "../host.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { diskFixture } from "./helpers/fixture.ts";

// Another process swaps a folder for a link to the outside after the walk
// listed it and before grep opens the files in it. Opening refuses a link
// only in the last component, so the files would be read from outside; the
// folder re-check must refuse the whole result instead of reporting them.
describe("grep and a folder swapped after the walk", () => {
  test("refuses with PATH_CHANGED and reports nothing from outside", async () => {
    const fixture = await diskFixture(["d/notes.txt=inside, no match", "other.txt=needle inside"]);
    try {
      fs.writeFileSync(path.join(fixture.outside, "notes.txt"), "needle OUTSIDE-SECRET");
      const base = createAutoHost();
      let swapped = false;
      const swap = (hostPath: string) => {
        if (!swapped && hostPath.startsWith(fixture.abs("d") + path.sep)) {
          swapped = true;
          fs.renameSync(fixture.abs("d"), fixture.abs("d-real"));
          fs.symlinkSync(fixture.outside, fixture.abs("d"));
        }
      };
      const host: Host = {
        ...base,
        open: (hostPath, options) => {
          swap(hostPath);
          return base.open(hostPath, options);
        },
        ...(base.readSync === undefined ? {} : {
          readSync: (hostPath: string, into: Parameters<NonNullable<Host["readSync"]>>[1]) => {
            swap(hostPath);
            return base.readSync!(hostPath, into);
          },
        }),
      };
      const workspace = await openWorkspace(fixture.root, { host });
      const grep = createGrepTool(workspace);
      const error = await grep.execute({ pattern: "needle" }).catch((e) => e);
      expect(swapped).toBe(true);
      expect(error).toMatchObject({ code: "PATH_CHANGED" });
      expect(JSON.stringify(error)).not.toContain("OUTSIDE-SECRET");
    } finally {
      fixture.cleanup();
    }
  });
});
