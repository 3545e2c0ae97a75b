// Private paths (issue #41, item 1), replayed on every host: every call of the
// shared table that names a private path, as given or through a link inside
// the workspace, answers PATH_PRIVATE with its hint and changes nothing; the
// listings and searches leave private entries out and say how many; no result
// holds a secret's bytes; a NOT_FOUND hint never offers a private name.
import { afterEach, describe, expect, test } from "vitest";
import { createCodingTools, MemoryWorkspace, openWorkspace, ToolRegistry } from "../mod.ts";
import { ERROR_HINTS } from "../src/core/error_hints.ts";
import {
  PRIVATE_LISTINGS,
  PRIVATE_ORIGINALS,
  PRIVATE_PATTERNS,
  PRIVATE_REFUSALS,
  PRIVATE_SECRETS,
  PRIVATE_TREE,
} from "./cases/private_paths.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { callFailure, callOk, callTool } from "./helpers/tool_call.ts";

let opened: TestWorkspace | undefined;
afterEach(async () => {
  await opened?.cleanup();
  opened = undefined;
});

async function expectIntact(tw: TestWorkspace, before: string[]): Promise<void> {
  for (const [file, bytes] of Object.entries(PRIVATE_ORIGINALS)) expect(await tw.readRaw(file), file).toBe(bytes);
  expect(await tw.listAll()).toEqual(before);
  expect(await tw.leftovers()).toEqual([]);
}

function expectNoSecret(body: unknown): void {
  const text = JSON.stringify(body);
  for (const secret of PRIVATE_SECRETS) expect(text).not.toContain(secret);
}

for (const host of TEST_HOSTS) {
  describe(`private paths on the ${host.name} host`, () => {
    const open = async () => {
      const tw = opened = await host.open([...PRIVATE_TREE], { privatePaths: PRIVATE_PATTERNS });
      // The stale-write guard off: a refusal must come from the private check, not from FILE_NOT_READ.
      const registry = new ToolRegistry(createCodingTools(tw.workspace, { staleWriteGuard: false }));
      return { tw, registry, before: await tw.listAll() };
    };

    test.each(PRIVATE_REFUSALS)("$name: PATH_PRIVATE, nothing changed", async ({ tool, args }) => {
      const { tw, registry, before } = await open();
      const error = await callFailure(registry, tool, args);
      expect(error.code, JSON.stringify(error)).toBe("PATH_PRIVATE");
      expect(error.hint).toBe(ERROR_HINTS.PATH_PRIVATE);
      // The message names the path as the caller gave it, never a host path.
      const given = [args.path, args.source, args.destination].filter((value) => typeof value === "string");
      if (given.length > 0) {
        expect(given.some((named) => error.message.includes(`'${named}'`)), error.message).toBe(true);
      }
      expect(JSON.stringify(error)).not.toContain(tw.workspace.root);
      expectNoSecret(error);
      await expectIntact(tw, before);
    });

    test.each(PRIVATE_LISTINGS)("$name leaves the private entries out and counts them", async (row) => {
      const { tw, registry, before } = await open();
      const body = await callOk(registry, row.tool, row.args);
      expect(row.shown(body).sort()).toEqual([...row.expected].sort());
      expect(body.privateLeftOut).toBe(row.leftOut);
      expectNoSecret(body);
      await expectIntact(tw, before);
    });

    test("grep's content of the whole workspace holds no private line, through links neither", async () => {
      const { registry } = await open();
      const body = await callOk(registry, "grep", { pattern: "secret", output_mode: "content" });
      expect(body.matches).toEqual([]);
      expect(body.privateLeftOut).toBe(3);
    });

    test("a NOT_FOUND hint never offers a private name", async () => {
      const { registry } = await open();
      const error = await callFailure(registry, "read_file", { path: ".enw" });
      expect(error.code).toBe("NOT_FOUND");
      expect(error.hint ?? "").not.toContain(".env");
      // A name that would be private is refused as such, found or not; a near public one gets a hint without the private.
      expect((await callFailure(registry, "read_file", { path: "config/.env.locl" })).code).toBe("PATH_PRIVATE");
      const inFolder = await callFailure(registry, "read_file", { path: "config/app.jsn" });
      expect(inFolder.code).toBe("NOT_FOUND");
      expect(inFolder.hint).toContain("app.json");
      expect(inFolder.hint).not.toContain(".env.local");
    });

    test("what is not private stays usable: the link names, and files beside the private ones", async () => {
      const { tw, registry } = await open();
      expect((await callOk(registry, "read_file", { path: "app.txt" })).content).toContain("KEY=public");
      await callOk(registry, "write_file", { path: "config/app.json", content: '{"a":1}' });
      expect(await tw.readRaw("config/app.json")).toBe('{"a":1}');
      // The link itself is not private (its name is not): it is listed, and deleting it leaves .env as it was.
      await callOk(registry, "delete_path", { path: "notes" });
      expect(await tw.readRaw(".env")).toBe("KEY=disk-secret");
      const listed = await callOk(registry, "list_directory", { path: "." });
      expect(listed.privateLeftOut).toBe(2);
      expect(listed.entries.map((entry: { name: string }) => entry.name)).not.toContain("notes");
    });

    test("without private paths every listing is as before: no privateLeftOut field", async () => {
      const tw = opened = await host.open([...PRIVATE_TREE]);
      const registry = new ToolRegistry(createCodingTools(tw.workspace, { staleWriteGuard: false }));
      for (const row of PRIVATE_LISTINGS) {
        const { body } = await callTool(registry, row.tool, row.args);
        expect(body.privateLeftOut, row.name).toBeUndefined();
      }
      expect((await callOk(registry, "read_file", { path: ".env" })).content).toContain("disk-secret");
    });
  });
}

describe("createCodingTools and private paths", () => {
  test("a workspace object not opened with them is refused at once, naming openWorkspace", async () => {
    const tw = opened = await TEST_HOSTS[0].open(["a.txt=x"]);
    expect(() => createCodingTools(tw.workspace, { privatePaths: [".env"] })).toThrow(
      /openWorkspace\(root, \{ privatePaths \}\)/,
    );
    expect(() => createCodingTools(tw.workspace, { privatePaths: [] })).not.toThrow();
  });
});

describe("private patterns are checked where they are given", () => {
  // A pattern with a folder in it would never match (names match at any depth): refused, not ignored.
  const BAD = ["config/.env", "", "/abs", "a\\b", "nul\0", "x/**/y", "**/.env"];
  test.each(BAD.map((pattern) => [JSON.stringify(pattern), pattern]))(
    "%s: openWorkspace, MemoryWorkspace and createCodingTools throw a TypeError that says how to write it",
    async (_label, pattern) => {
      await expect(openWorkspace(".", { privatePaths: [pattern] })).rejects.toThrow(TypeError);
      expect(() => new MemoryWorkspace({ privatePaths: [pattern] })).toThrow(/expected a name or glob/);
      expect(() => createCodingTools(".", { privatePaths: [pattern] })).toThrow(TypeError);
    },
  );
  test("the documented forms are taken", async () => {
    const workspace = await openWorkspace(".", { privatePaths: [".env", ".env.*", "secrets/**", "*.pem"] });
    expect(workspace.privatePaths).toEqual([".env", ".env.*", "secrets/**", "*.pem"]);
  });
});
