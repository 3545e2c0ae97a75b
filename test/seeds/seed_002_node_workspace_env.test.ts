// Seed 002, "ما يُفرَض فعلًا": a NodeWorkspace whose commands get extra and inherited
// variables. As the seed writes it; the test gives it a ./project folder and a CI variable.
import { NodeWorkspace } from "@paddock/tools";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { deleteEnv, setEnv } from "../helpers/process.ts";

let parent: string;
let before: string;
beforeEach(() => {
  before = process.cwd();
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-seed-002-env-"));
  fs.mkdirSync(path.join(parent, "project"));
  process.chdir(parent);
  setEnv("CI", "seed-ci");
  setEnv("PADDOCK_SEED_SECRET", "must-not-leak");
});
afterEach(() => {
  process.chdir(before);
  deleteEnv("CI");
  deleteEnv("PADDOCK_SEED_SECRET");
  fs.rmSync(parent, { recursive: true, force: true });
});

test("seed 002: env is added and inheritEnv is copied for every command; nothing else of the host's", async () => {
  // --- the example ---
  const workspace = new NodeWorkspace({
    root: "./project",
    env: { NODE_ENV: "test" }, // added for every command
    inheritEnv: ["CI", "NODE_OPTIONS"], // copied from the host environment
  });
  // --- end of the example ---

  const result = await workspace.exec('echo "$NODE_ENV $CI ${PADDOCK_SEED_SECRET:-unset}"; pwd -P');
  expect(result).toMatchObject({ exitCode: 0, timedOut: false, stderr: "" });
  expect(result.stdout).toBe(`test seed-ci unset\n${fs.realpathSync(path.join(parent, "project"))}\n`);
});
