import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { LIMITS } from "../mod.ts";
import { VERSION } from "../src/version.ts";

const repo = path.resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repo, file), "utf8"));

describe("package manifests", () => {
  const pkg = readJson("package.json");
  const deno = readJson("deno.json");

  test("deno.json and package.json export the same subpaths, each to the built twin of the same source", () => {
    expect(Object.keys(pkg.exports).sort()).toEqual(Object.keys(deno.exports).sort());
    for (const [subpath, source] of Object.entries<string>(deno.exports)) {
      const built = "./dist/" + source.replace(/^\.\//, "").replace(/\.ts$/, "");
      expect(pkg.exports[subpath], subpath).toEqual({ types: `${built}.d.ts`, default: `${built}.js` });
      expect(fs.existsSync(path.join(repo, source)), source).toBe(true);
    }
  });

  test("both manifests carry the same name and version", () => {
    expect(pkg.name).toBe("@paddock/tools");
    expect(deno.name).toBe(pkg.name);
    expect(deno.version).toBe(pkg.version);
    expect(VERSION).toBe(pkg.version);
  });

  test("no runtime dependency is loaded from the network: every import map entry is an npm: specifier of a package.json dependency", () => {
    for (const [name, specifier] of Object.entries<string>(deno.imports ?? {})) {
      expect(specifier.startsWith("npm:"), name).toBe(true);
      expect(pkg.dependencies[name] ?? pkg.devDependencies[name], name).toBeDefined();
    }
  });
});

describe("runtime neutrality", () => {
  const neutral = ["src/host.ts", "src/core", "src/tools", "src/registry", "src/agent", "src/adapters", "src/seed"];
  const files = neutral.flatMap((entry) => {
    const full = path.join(repo, entry);
    return fs.statSync(full).isDirectory()
      ? fs.readdirSync(full, { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).map((f) =>
        path.join(entry, f)
      )
      : [entry];
  });

  test.each(files)("%s touches no runtime API (node:*, Deno, Bun, process, Buffer)", (file) => {
    const code = fs.readFileSync(path.join(repo, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    expect(code).not.toMatch(/(from|import)\s*\(?\s*["']node:/);
    // String literals may mention these names (descriptions, generated scripts).
    const bare = code.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
    expect(bare).not.toMatch(/\bDeno\.|\bBun\.|\bprocess\.|\bBuffer\b|\brequire\(/);
  });
});

describe("README and docs/tools.md", () => {
  const readme = fs.readFileSync(path.join(repo, "README.md"), "utf8");
  const tools = fs.readFileSync(path.join(repo, "docs/tools.md"), "utf8");

  test.each(Object.entries(LIMITS))("docs/tools.md shows the limit %s with its value", (name, value) => {
    const row = tools.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, name).toBeDefined();
    expect(row?.split("|")[2].trim()).toBe(value.toLocaleString("en-US"));
  });

  test("the README shows the two commands that set everything up", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
  });
});
