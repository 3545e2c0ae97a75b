// read_media_file, directory_tree and get_file_info (the reference MCP
// filesystem server's tools, as library tools) on every test host: what each
// returns (the shared hostile-path and symlink tables replay them with every
// other path tool, in test/path_tools_replay.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDirectoryTreeTool, createFileInfoTool, createReadMediaFileTool } from "../mod.ts";
import { encodeBase64 } from "../src/core/text/encode_base64.ts";
import { DIRECTORY_TREE_MAX_DEPTH } from "../src/core/limits.ts";
import { sniffMediaType } from "../src/core/text/sniff_media_type.ts";
import { SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { codeOf } from "./helpers/codes.ts";
import { OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

const WAV = "RIFF\u0024\0\0\0WAVEfmt \u0010\0\0\0";
const MEDIA_TREE = [
  "img/pic.gif=GIF89a\u0001\0\u0001\0",
  "img/notes.txt=GIF89a a picture named like text",
  "img/fake.png=plain text with an image's name",
  "sound.wav=" + WAV,
  "tune.ogg=OggS\0\u0002",
  "src/a.ts=export {};\n",
  "src/deep/er/est/f.txt=x",
  "empty/",
  ".gitignore=build/\n",
  "build/out.js=ignored",
];

for (const host of TEST_HOSTS) {
  describe(`read_media_file, directory_tree, get_file_info on the ${host.name} host`, () => {
    describe("symlink fixtures as the path argument", () => {
      let tw: TestWorkspace;
      beforeAll(async () => {
        tw = await host.open(SYMLINK_TREE);
      });
      afterAll(() => tw.cleanup());
      // The hostile-path and symlink tables go through these tools with every other path tool
      // (test/cases/tool_replay.ts, replayed by test/path_tools_replay.test.ts); here, what they show.
      test("get_file_info names where a link inside led, and never the outside", async () => {
        const info = createFileInfoTool(tw.workspace);
        expect(await info.execute({ path: "chain1" })).toMatchObject({
          path: "chain1",
          resolvedPath: "d/f.txt",
          kind: "file",
          size: 6,
        });
        expect(await info.execute({ path: "d" })).toMatchObject({ path: "d", kind: "directory" });
        expect((await info.execute({ path: "d" })).resolvedPath).toBeUndefined();
      });

      test("directory_tree shows links as symlink and follows none", async () => {
        const { tree } = await createDirectoryTreeTool(tw.workspace).execute({});
        const names = tree.map((node) => `${node.name}:${node.kind}`);
        expect(names).toContain("dir-out:symlink");
        expect(names).toContain("in-dir:symlink");
        expect(names).toContain("d:directory");
        expect(JSON.stringify(tree)).not.toContain(OUTSIDE_SECRET);
        expect(JSON.stringify(tree)).not.toContain("secret.txt");
      });
    });

    describe("what each returns", () => {
      let tw: TestWorkspace;
      beforeAll(async () => {
        tw = await host.open(MEDIA_TREE);
      });
      afterAll(() => tw.cleanup());

      test("read_media_file returns the bytes as base64 with the type the bytes say", async () => {
        const read = createReadMediaFileTool(tw.workspace);
        const gif = await read.execute({ path: "img/pic.gif" });
        expect(gif).toEqual({
          path: "img/pic.gif",
          kind: "image",
          mimeType: "image/gif",
          bytes: 10,
          data: encodeBase64(new TextEncoder().encode("GIF89a\u0001\0\u0001\0")),
        });
        // Differential: the same bytes as the raw file.
        expect(atob(gif.data)).toBe(await tw.readRaw("img/pic.gif"));
        expect(await read.execute({ path: "sound.wav" })).toMatchObject({ kind: "audio", mimeType: "audio/wav" });
        expect(await read.execute({ path: "tune.ogg" })).toMatchObject({ kind: "audio", mimeType: "audio/ogg" });
        // The name does not count: a GIF named .txt is an image, text named .png is not.
        expect(await read.execute({ path: "img/notes.txt" })).toMatchObject({ mimeType: "image/gif" });
        expect(await codeOf(read.execute({ path: "img/fake.png" }))).toBe("UNSUPPORTED_MEDIA_TYPE");
        expect(await codeOf(read.execute({ path: "img" }))).toBe("NOT_A_FILE");
        expect(await codeOf(read.execute({ path: "missing.png" }))).toBe("NOT_FOUND");
      });

      test("read_media_file refuses a file over its bound from its size", async () => {
        const read = createReadMediaFileTool(tw.workspace, { maxBytes: 9 });
        expect(await codeOf(read.execute({ path: "img/pic.gif" }))).toBe("FILE_TOO_LARGE");
        expect(await createReadMediaFileTool(tw.workspace, { maxBytes: 10 }).execute({ path: "img/pic.gif" }))
          .toMatchObject({ bytes: 10 });
      });

      test("directory_tree nests folders, sorts names, skips what .gitignore excludes", async () => {
        const result = await createDirectoryTreeTool(tw.workspace).execute({ path: "src" });
        expect(result).toEqual({
          path: "src",
          tree: [
            { name: "a.ts", kind: "file" },
            {
              name: "deep",
              kind: "directory",
              children: [{
                name: "er",
                kind: "directory",
                children: [{ name: "est", kind: "directory", children: [{ name: "f.txt", kind: "file" }] }],
              }],
            },
          ],
          entries: 5,
          truncated: false,
          depthLimited: false,
        });
        const top = await createDirectoryTreeTool(tw.workspace).execute({});
        expect(top.tree.map((node) => node.name)).toEqual([
          ".gitignore",
          "empty",
          "img",
          "sound.wav",
          "src",
          "tune.ogg",
        ]);
        expect(top.tree.find((node) => node.name === "empty")).toEqual({
          name: "empty",
          kind: "directory",
          children: [],
        });
        const all = await createDirectoryTreeTool(tw.workspace).execute({ include_ignored: true });
        expect(all.tree.map((node) => node.name)).toContain("build");
      });

      test("directory_tree says when depth or the entry bound cut it", async () => {
        const shallow = await createDirectoryTreeTool(tw.workspace).execute({ path: "src", max_depth: 1 });
        expect(shallow.tree).toEqual([{ name: "a.ts", kind: "file" }, { name: "deep", kind: "directory" }]);
        expect(shallow).toMatchObject({ depthLimited: true, truncated: false, entries: 2 });
        const few = await createDirectoryTreeTool(tw.workspace, { maxEntries: 3 }).execute({});
        expect(few).toMatchObject({ truncated: true });
        expect(few.entries).toBeLessThanOrEqual(3);
        // max_depth above the ceiling is held to it.
        const capped = createDirectoryTreeTool(tw.workspace, { maxDepth: 2 }).validate({
          max_depth: DIRECTORY_TREE_MAX_DEPTH,
        });
        expect(capped.maxDepth).toBe(2);
        expect(await codeOf(createDirectoryTreeTool(tw.workspace).execute({ path: "src/a.ts" }))).toBe(
          "NOT_A_DIRECTORY",
        );
      });

      test("get_file_info gives kind, size, times and permissions, and no host path or inode", async () => {
        const info = await createFileInfoTool(tw.workspace).execute({ path: "src/a.ts" });
        expect(info).toMatchObject({ path: "src/a.ts", kind: "file", size: 11 });
        expect(Date.parse(info.modified)).toBeGreaterThan(Date.parse("2020-01-01"));
        expect(info.mode).toMatch(/^[0-7]{4}$/);
        expect(info.permissions).toMatch(/^[r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-]$/);
        expect(Object.keys(info).sort()).toEqual(
          expect.arrayContaining(["kind", "mode", "modified", "path", "permissions", "size"]),
        );
        expect(Object.keys(info)).not.toContain("ino");
        const root = await createFileInfoTool(tw.workspace).execute({});
        expect(root).toMatchObject({ path: ".", kind: "directory" });
        expect(root.size).toBeUndefined();
        expect(JSON.stringify(root)).not.toContain(tw.workspace.root);
      });
    });
  });
}

describe("sniffMediaType", () => {
  const bytes = (...values: (number | string)[]) =>
    new Uint8Array(
      values.flatMap((value) => typeof value === "string" ? [...value].map((c) => c.charCodeAt(0)) : [value]),
    );
  test.each([
    ["PNG", bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a), "image/png"],
    ["JPEG", bytes(0xff, 0xd8, 0xff, 0xe0), "image/jpeg"],
    ["GIF87a", bytes("GIF87a"), "image/gif"],
    ["WebP", bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "), "image/webp"],
    ["BMP", bytes("BM", 0, 0), "image/bmp"],
    ["TIFF", bytes(0x49, 0x49, 0x2a, 0), "image/tiff"],
    ["AVIF", bytes(0, 0, 0, 0x1c, "ftypavif"), "image/avif"],
    ["WAV", bytes("RIFF", 0, 0, 0, 0, "WAVE"), "audio/wav"],
    ["FLAC", bytes("fLaC"), "audio/flac"],
    ["MP3 with ID3", bytes("ID3", 4, 0), "audio/mpeg"],
    ["bare MP3 frame", bytes(0xff, 0xfb, 0x90, 0x64), "audio/mpeg"],
    ["AAC (ADTS)", bytes(0xff, 0xf1, 0x50, 0x80), "audio/aac"],
    ["M4A", bytes(0, 0, 0, 0x20, "ftypM4A "), "audio/mp4"],
  ])("recognises %s", (_name, head, mimeType) => {
    expect(sniffMediaType(head)?.mimeType).toBe(mimeType);
  });

  test.each([
    ["text", bytes("hello")],
    ["a RIFF that is neither", bytes("RIFF", 0, 0, 0, 0, "AVI ")],
    ["too short", bytes(0x89, "PN")],
    ["empty", bytes()],
  ])("refuses %s", (_name, head) => {
    expect(sniffMediaType(head)).toBeUndefined();
  });
});

describe("encodeBase64", () => {
  test.each(["", "f", "fo", "foo", "foob", "fooba", "foobar"])("encodes %j as RFC 4648 says", (text) => {
    expect(encodeBase64(new TextEncoder().encode(text))).toBe(btoa(text));
  });
  test("encodes every byte value, across slice boundaries", () => {
    const data = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
    expect(encodeBase64(data)).toBe(btoa(Array.from(data, (b) => String.fromCharCode(b)).join("")));
  });
});
