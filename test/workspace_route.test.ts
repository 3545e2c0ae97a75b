// The route a workspace's walks take is visible without waiting (`workspace.route`), and the file tools'
// descriptions say when it is the fallback path walk. (Deno's scoped permissions: test/deno_permissions.test.ts.)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createCodingTools, openWorkspace } from "../mod.ts";
import { MemoryWorkspace } from "../testing.ts";
import { PATHS_ROUTE_NOTE } from "../src/tools/route_note.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-route-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const onLinux = process.platform === "linux";

describe("workspace.route", () => {
  test.skipIf(!onLinux)("is handles on Linux once openWorkspace returns, and equals confinement()", async () => {
    // Under Deno the suite runs with -A, which the handles route needs.
    const workspace = await openWorkspace(root);
    expect(workspace.route).toBe("handles");
    expect(await workspace.confinement()).toBe("handles");
    expect(createCodingTools(workspace).some((tool) => tool.description.includes(PATHS_ROUTE_NOTE))).toBe(false);
    await workspace.close();
    expect(workspace.route).toBe("handles");
  });

  test("is paths when the fallback is forced, and every file tool's description says so", async () => {
    const workspace = await openWorkspace(root, { confinement: "paths" });
    expect(workspace.route).toBe("paths");
    const tools = createCodingTools(workspace, { shell: { allow: ["true"] } });
    const noted = tools.filter((tool) => tool.description.endsWith(PATHS_ROUTE_NOTE)).map((tool) => tool.name);
    expect(noted).toEqual(expect.arrayContaining(["read_file", "write_file", "edit_file", "grep", "find_files"]));
    expect(noted).not.toContain("shell");
    expect(noted).not.toContain("node_process");
    await workspace.close();
  });

  test("the memory host holds its own folders: handles, before and after the root is held", async () => {
    const workspace = new MemoryWorkspace();
    expect(workspace.route).toBe("handles");
    expect(await workspace.confinement()).toBe("handles");
    expect(workspace.route).toBe("handles");
  });
});
