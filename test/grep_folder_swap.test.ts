import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createGrepTool, openWorkspace } from "../mod.ts";
import type { Host } from "../host.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { GREP_READ_CHUNK_BYTES } from "../src/core/limits.ts";
import { diskFixture } from "./helpers/fixture.ts";

// Another process swaps a folder for a link to the outside after the walk
// listed it and before grep opens the files in it. On the handles route the
// files are opened at the held folder (moved aside, still inside); on the
// paths route the folder re-check must refuse the whole result instead.
describe("grep and a folder swapped after the walk", () => {
  // A large file (GREP_READ_CHUNK_BYTES or more) is declined by the one-step read, then opened again
  // and read in parts: both opens must reach the held folder.
  const large = "x".repeat(GREP_READ_CHUNK_BYTES + 4_096) + "\n";
  test.each([["handles", ""], ["paths", ""], ["handles", large], ["paths", large]] as const)(
    "%s: reports nothing from outside (handles: the held folder is searched; paths: PATH_CHANGED) %#",
    async (confinement, padding) => {
      const fixture = await diskFixture([`d/notes.txt=${padding}inside, no match`, "other.txt=needle inside"]);
      try {
        fs.writeFileSync(path.join(fixture.outside, "notes.txt"), `${padding}needle OUTSIDE-SECRET`);
        const base = createAutoHost();
        let swapped = false;
        const swap = (hostPath: string) => {
          if (!swapped && hostPath.endsWith(`${path.sep}notes.txt`)) {
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
            readSync: (...args: Parameters<NonNullable<Host["readSync"]>>) => {
              swap(args[0]);
              return base.readSync!(...args);
            },
          }),
        };
        const workspace = await openWorkspace(fixture.root, {
          host,
          confinement: confinement === "paths" ? "paths" : "auto",
        });
        expect(await workspace.confinement()).toBe(confinement);
        const grep = createGrepTool(workspace, { maxFileBytes: 4 * GREP_READ_CHUNK_BYTES });
        const result = await grep.execute({ pattern: "needle" }).catch((e) => e);
        expect(swapped).toBe(true);
        if (confinement === "paths") expect(result).toMatchObject({ code: "PATH_CHANGED" });
        else {expect(result).toMatchObject({
            matches: [{ path: "other.txt", line: 1, text: "needle inside" }],
            truncated: false,
          });}
        expect(JSON.stringify(result)).not.toContain("OUTSIDE-SECRET");
      } finally {
        fixture.cleanup();
      }
    },
  );
});
