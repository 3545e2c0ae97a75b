// Seed 002, "وسيط بيانات الاعتماد": a broker whose env is handed to a NodeWorkspace, and a
// curl through broker.baseUrl(host). As the seed writes it; the test gives it a ./project
// folder. Offline, api.github.com cannot be reached: what matters is that the request
// reaches the broker's path form (NO_PROXY keeps curl from sending it back through the
// proxy, which answered "403 Host '127.0.0.1' is not on the allowlist") and that the URL
// has no doubled slash.
import { createCredentialBroker, NodeWorkspace } from "@paddock/tools";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { hasProgram } from "../helpers/fixture.ts";
import { skipNote } from "../helpers/runtime.ts";

let parent: string;
let before: string;
beforeEach(() => {
  before = process.cwd();
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-seed-002-broker-"));
  fs.mkdirSync(path.join(parent, "project"));
  process.chdir(parent);
});
afterEach(() => {
  process.chdir(before);
  fs.rmSync(parent, { recursive: true, force: true });
});

test.skipIf(!hasProgram("curl"))(
  `seed 002: curl -s \${broker.baseUrl(host)}/user reaches the broker's path form${
    skipNote(!hasProgram("curl"), "no curl on PATH")
  }`,
  async () => {
    let output = "";
    // --- the example ---
    const token = "ghp_example"; // read from your secret store; never passed to the command
    const broker = await createCredentialBroker({
      rules: { "api.github.com": { authorization: () => `Bearer ${token}` } },
      allow: ["registry.npmjs.org"], // reachable without injected headers
    });
    const workspace = new NodeWorkspace({ root: "./project", env: { ...broker.env } });
    output = (await workspace.exec(`curl -s ${broker.baseUrl("api.github.com")}/user`)).stdout;
    await broker.close();
    // --- end of the example ---

    expect(broker.baseUrl("api.github.com")).toBe(`${broker.url}/__broker/api.github.com`);
    expect(broker.env).toMatchObject({ NO_PROXY: "127.0.0.1", no_proxy: "127.0.0.1" });
    expect(output).not.toContain("not on the allowlist");
    // The broker took it as a path-form request for api.github.com (offline: it cannot resolve or reach it).
    expect(output).toMatch(/api\.github\.com/);
    expect(output).not.toContain(token);
  },
);
