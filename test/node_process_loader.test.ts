import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, type NodeProcessToolOptions, WorkspaceError } from "../mod.ts";
import { BubblewrapSandbox } from "../sandbox.ts";
import { LOADER_TRICKS, type LoaderTrick, outsideFiles } from "./cases/loader_tricks.ts";
import { type DiskFixture, diskFixture, leftovers, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { onBun, skipNote } from "./helpers/runtime.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  if (fixture) {
    expect(leftovers(fixture.root)).toEqual([]);
    fixture.cleanup();
    fixture = undefined;
  }
});

// Runs one trick and returns everything it printed (or the error it ended in).
async function replay(trick: LoaderTrick, options: NodeProcessToolOptions): Promise<{ text: string; ran: boolean }> {
  fixture = await diskFixture();
  const paths = { outside: fixture.outside, root: fixture.root };
  for (const [name, content] of Object.entries(outsideFiles(OUTSIDE_SECRET))) {
    fs.writeFileSync(path.join(fixture.outside, name), content);
  }
  for (const [name, content] of Object.entries(trick.files?.(paths) ?? {})) {
    fs.writeFileSync(path.join(fixture.root, name), content);
  }
  const source = trick.runs === false ? trick.source(paths) : `console.log("RAN");\n${trick.source(paths)}`;
  const tool = createNodeProcessTool(fixture.workspace, { timeoutMs: 10_000, ...options });
  try {
    const result = await tool.execute({ source });
    return { text: result.stdout + result.stderr, ran: result.stdout.startsWith("RAN\n") };
  } catch (error) {
    // A trick stuck until the time limit read nothing either; say so in the text.
    if (error instanceof WorkspaceError) return { text: `${error.code}: ${error.message}`, ran: true };
    throw error;
  }
}

describe.skipIf(onBun)(
  `node_process under the runtime permissions: no loader trick reads an outside file${
    skipNote(onBun, "Bun has no permission model")
  }`,
  () => {
    test.each(LOADER_TRICKS.map((trick) => [trick.name, trick] as const))(
      "%s does not reach the secret",
      async (_name, trick) => {
        const { text, ran } = await replay(trick, {});
        expect(text).not.toContain(OUTSIDE_SECRET);
        if (trick.runs !== false) expect(ran, text).toBe(true);
      },
    );
  },
);

describe("the loader-trick table is not vacuous", () => {
  test("unconfined (permissions: inherit), most tricks do reach the secret", async () => {
    const leaked: string[] = [];
    for (const trick of LOADER_TRICKS) {
      const { text } = await replay(trick, { permissions: "inherit" });
      if (text.includes(OUTSIDE_SECRET)) leaked.push(trick.name);
      expect(leftovers(fixture!.root)).toEqual([]);
      fixture!.cleanup();
      fixture = undefined;
    }
    expect(leaked.length, leaked.join("\n")).toBeGreaterThanOrEqual(20);
  }, 120_000);
});

describe.skipIf(sandboxSkipReason !== undefined)(
  `node_process in the OS sandbox: no loader trick reads an outside file${sandboxSkipNote}`,
  () => {
    const sandbox = new BubblewrapSandbox();
    afterAll(async () => await sandbox.close?.());
    // Bun has no permission model: the sandbox alone confines it.
    const options: NodeProcessToolOptions = { sandbox, ...(onBun ? { permissions: "inherit" as const } : {}) };
    test.each(LOADER_TRICKS.map((trick) => [trick.name, trick] as const))(
      "%s does not reach the secret",
      async (_name, trick) => {
        const { text, ran } = await replay(trick, options);
        expect(text).not.toContain(OUTSIDE_SECRET);
        if (trick.runs !== false) expect(ran, text).toBe(true);
      },
    );
  },
);
