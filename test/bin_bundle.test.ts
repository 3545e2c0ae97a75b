import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import type { SearchWorkerReply, SearchWorkerRequest } from "../src/hosts/_search_worker.ts";
import { SHARED_BYTES } from "../src/hosts/_search_shared.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { REPO } from "./helpers/paddock_command.ts";
import { runtime, skipNote } from "./helpers/runtime.ts";

// The Node pass's setup (build_cli.ts) builds the bundle npm's bin runs (scripts/build_bin.mjs), and every
// test there that starts `paddock` runs it. Deno and Bun passes run the TypeScript sources instead.
const cli = process.env.PADDOCK_TEST_CLI;
const bin = cli === undefined ? "" : path.dirname(cli);
const NOTE = skipNote(cli === undefined, `the bundle is built by the Node pass only (this is ${runtime})`);

describe("the paddock bin's bundle (scripts/build_bin.mjs)", () => {
  test.skipIf(cli === undefined)(
    `each module that starts the grep worker finds the worker's bundle beside it${NOTE}`,
    () => {
      // Found silently missing otherwise: grep falls back to searching in the calling thread.
      const starters = fs.readdirSync(bin).filter((file) =>
        file.endsWith(".js") && fs.readFileSync(path.join(bin, file), "utf8").includes('"./_search_worker.js"')
      );
      expect(starters.length).toBe(1);
      for (const file of starters) {
        const worker = new URL("./_search_worker.js", pathToFileURL(path.join(bin, file)));
        expect(fs.statSync(worker).isFile()).toBe(true);
      }
    },
  );

  test.skipIf(cli === undefined)(`the bundled grep worker searches the batches it is sent${NOTE}`, async () => {
    const fixture = await diskFixture(["a.txt=one needle\nneedle two\n", "b.txt=nothing\n", "c.txt=needle\n"]);
    const worker = new Worker(path.join(bin, "_search_worker.js"), {
      workerData: { shared: new SharedArrayBuffer(SHARED_BYTES) },
    });
    try {
      const reply = new Promise<SearchWorkerReply>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      const spec = {
        pattern: "needle",
        literal: true,
        ignoreCase: false,
        outputMode: "count",
        context: 0,
        cap: 100,
        maxLineChars: 100,
        maxFileBytes: 1_000,
      } as const;
      const send = (message: SearchWorkerRequest) => worker.postMessage(message);
      send({ kind: "search", search: 1, spec });
      const paths = ["a.txt", "b.txt", "c.txt"].map((name) => path.join(fixture.root, name));
      send({ kind: "batch", search: 1, batch: 7, paths: paths.join("\0"), slot: -1 });
      const answer = await reply;
      expect("found" in answer).toBe(true);
      if (!("found" in answer)) return;
      expect(answer.batch).toBe(7);
      expect(answer.found.map(([index, outcome]) => [index, outcome.count])).toEqual([[0, 2], [2, 1]]);
    } finally {
      await worker.terminate();
      fixture.cleanup();
    }
  });

  test.skipIf(cli === undefined)(
    `THIRD_PARTY_LICENSES.txt gives each bundled dependency's license, at the version installed${NOTE}`,
    () => {
      const notices = fs.readFileSync(path.join(bin, "THIRD_PARTY_LICENSES.txt"), "utf8");
      const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      const names = Object.keys(pkg.dependencies);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const installed = JSON.parse(
          fs.readFileSync(path.join(REPO, "node_modules", name, "package.json"), "utf8"),
        ) as { version: string };
        const entry = `\n${name}@${installed.version}\n\n`;
        expect({ name, listed: notices.includes(entry) }).toEqual({ name, listed: true });
        // The license text itself follows the name.
        const text = notices.slice(notices.indexOf(entry) + entry.length, notices.indexOf(entry) + entry.length + 400);
        expect({ name, license: /licen[cs]e|permission is hereby granted/i.test(text) }).toEqual({
          name,
          license: true,
        });
      }
    },
  );
});
