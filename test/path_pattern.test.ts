import { describe, expect, test } from "vitest";
import { pathPattern } from "../src/core/text/path_pattern.ts";
import { workspacePathMapper } from "../src/sandbox/container_spec.ts";
import { sanitizeScriptOutput } from "../src/core/process/script_output.ts";

describe("pathPattern: a path matched only where it ends", () => {
  test.each([
    ["/w", "/w/x.txt", "P/x.txt"],
    ["/w", "at /w:3:7", "at P:3:7"],
    ["/w", "'/w' and \"/w\" and `/w`", "'P' and \"P\" and `P`"],
    ["/w", "(/w) [/w] /w, /w; /w\\x", "(P) [P] P, P; P\\x"],
    ["/w", "/w", "P"],
    ["/w", "/work /w.bak /w-1 /w_x", "/work /w.bak /w-1 /w_x"],
    ["/a.b+c", "/a.b+c/d /aXb+c/d /a.bbc/d", "P/d /aXb+c/d /a.bbc/d"],
  ])("%s in %j", (path, text, expected) => {
    expect(text.replace(new RegExp(pathPattern(path), "g"), "P")).toBe(expected);
  });

  test("the container's workspace path and a script's temp file are rewritten by the same rule", () => {
    const map = workspacePathMapper("/tmp/ws");
    expect(map("--allow-fs-read=/tmp/ws,/tmp/ws/src /tmp/wsx /tmp/ws2")).toBe(
      "--allow-fs-read=/workspace,/workspace/src /tmp/wsx /tmp/ws2",
    );
    expect(sanitizeScriptOutput("at /tmp/s.mjs:1:1 /tmp/s.mjsx\n", { scriptPath: "/tmp/s.mjs" })).toBe(
      "at <script>:1:1 /tmp/s.mjsx\n",
    );
  });
});
