// `check()` is what a server runs at start-up to decide whether commands are sandboxed (`paddock mcp`
// probes before it serves). It must not walk the shown host folders for the masks: that walk took
// ~750 ms of the server's start-up before `initialize` was answered. It runs once, before the first
// command, and every command gets the masks.
import { afterEach, describe, expect, test } from "vitest";
import { BubblewrapSandbox } from "../sandbox.ts";
import type { Host } from "../host.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

/** The real host, with each spawned program's name recorded. */
function recordingHost(spawned: string[]): Host {
  const host = createAutoHost();
  return new Proxy(host, {
    get(target, key, receiver) {
      if (key !== "spawn") return Reflect.get(target, key, receiver);
      return (request: Parameters<Host["spawn"]>[0]) => {
        spawned.push(request.argv[0].split("/").pop() ?? "");
        return target.spawn(request);
      };
    },
  });
}

describe("the bubblewrap sandbox's probe", () => {
  let fx: DiskFixture | undefined;
  afterEach(() => {
    fx?.cleanup();
    fx = undefined;
  });

  test.skipIf(sandboxSkipReason !== undefined)(
    `check() runs bwrap only; the mask walk (find) runs once, before the first command${sandboxSkipNote}`,
    async () => {
      fx = await diskFixture([]);
      const spawned: string[] = [];
      const sandbox = new BubblewrapSandbox({ host: recordingHost(spawned) });
      try {
        await sandbox.check();
        expect(spawned.filter((name) => name === "find")).toEqual([]);
        const request = { argv: ["/bin/true"], cwd: fx.root, env: {}, writable: [fx.root] };
        const first = await sandbox.wrap(request);
        const second = await sandbox.wrap(request);
        expect(spawned.filter((name) => name === "find")).toEqual(["find"]);
        // Both commands carry the same view, masks included.
        expect(second.argv).toEqual(first.argv);
      } finally {
        await sandbox.close();
      }
    },
  );
});
