// `paddock mcp --private PATTERN` (issue #41, item 1): the patterns hold in every root the server serves,
// nested roots too, for the reference server's extra tools as well; a bad pattern is a usage error.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { paddockCommand, REPO, SERVER_RUNTIMES } from "./helpers/paddock_command.ts";
import { startStdioServer } from "./helpers/stdio_server.ts";
import { spawnSync } from "node:child_process";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

const fixtures: DiskFixture[] = [];
afterEach(() => {
  for (const fixture of fixtures.splice(0)) fixture.cleanup();
});

describe.each(SERVER_RUNTIMES)("paddock mcp --private under %s", (serverRuntime) => {
  test(
    "every root: refused by name and through a link, left out of listings, and out of read_multiple_files",
    async () => {
      const fixture = await diskFixture([
        ".env=KEY=top-secret",
        "app/.env=KEY=app-secret",
        "app/main.ts=main",
        "app/notes => .env",
        "readme.md=hello",
      ]);
      fixtures.push(fixture);
      const server = await startStdioServer(serverRuntime, [
        "--root",
        fixture.root,
        "--root",
        path.join(fixture.root, "app"),
        "--private",
        ".env",
        "--node-process",
        "off",
      ]);
      const { call, reply, child, exited } = server;
      call("top", "read_file", { path: ".env" });
      call("nested", "read_file", { path: "app:.env" });
      call("link", "read_file", { path: "app:notes" });
      call("viaTop", "read_file", { path: "app/.env" });
      call("list", "list_directory", { path: "." });
      call("many", "read_multiple_files", { paths: ["readme.md", ".env", "app:notes"] });
      call("search", "grep", { pattern: "secret", output_mode: "files_with_matches" });
      for (const id of ["top", "nested", "link", "viaTop"]) {
        const body = (await reply(id)).result.structuredContent;
        expect(body.error.code, id).toBe("PATH_PRIVATE");
      }
      const listed = (await reply("list")).result.structuredContent;
      expect(listed.entries.map((entry: { name: string }) => entry.name)).toEqual(["app", "readme.md"]);
      expect(listed.privateLeftOut).toBe(1);
      const many = await reply("many");
      const text = JSON.stringify(many);
      expect(text).toContain("hello");
      expect(text).not.toContain("top-secret");
      expect(text).not.toContain("app-secret");
      expect(text.match(/PATH_PRIVATE/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      const search = (await reply("search")).result.structuredContent;
      expect(search.files).toEqual([]);
      expect(search.privateLeftOut).toBe(2);
      child.stdin.end();
      expect(await exited).toBe(0);
      // Nothing changed on disk.
      expect(fs.readFileSync(path.join(fixture.root, ".env"), "utf8")).toBe("KEY=top-secret");
    },
    120_000,
  );

  test.skipIf(sandboxSkipReason !== undefined)(
    `a sandboxed shell command reads nothing of a private path${sandboxSkipNote}`,
    async () => {
      const fixture = await diskFixture([".env=KEY=top-secret", "secrets/t.txt=KEY=folder-secret", "a.txt=KEY=public"]);
      fixtures.push(fixture);
      const server = await startStdioServer(serverRuntime, [
        "--root",
        fixture.root,
        "--private",
        ".env",
        "--private",
        "secrets/**",
        "--shell",
        "allow:grep -r KEY .",
        "--node-process",
        "off",
      ]);
      server.call("grep", "shell", { command: "grep -r KEY ." });
      const reply = await server.reply("grep");
      const body = reply.result.structuredContent;
      expect(body.stdout, JSON.stringify(reply) + server.stderr()).toContain("KEY=public");
      expect(body.stdout + body.stderr).not.toContain("secret");
      expect(server.stderr()).not.toContain("can read private paths");
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
    },
    120_000,
  );

  test("a pattern with a '/' other than a final '/**' is a usage error, before anything is served", () => {
    const { command, args } = paddockCommand(serverRuntime, ["mcp", "--root", REPO, "--private", "config/.env"]);
    const run = spawnSync(command, args, { cwd: REPO, encoding: "utf8", input: "", timeout: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("bad value 'config/.env' for --private");
  }, 60_000);
});
