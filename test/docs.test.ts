// The documentation cannot drift: README.md and docs/*.md include the examples from
// examples/ verbatim (each ```block after `<!-- include: FILE -->` equals the file),
// every relative link and #anchor resolves, and the README stays short.
import * as fs from "node:fs";
import * as path from "node:path";
import picomatch from "picomatch";
import { describe, expect, test } from "vitest";

const repo = path.resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const README_MAX_LINES = 300;
const pages = [
  "README.md",
  ...fs.readdirSync(path.join(repo, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
const text = (page: string): string => fs.readFileSync(path.join(repo, page), "utf8");

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (/^(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading === null) continue;
    const base = heading[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** Markdown outside fenced code blocks (links inside code are code). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

describe("the documentation", () => {
  test(`the README is at most ${README_MAX_LINES} lines`, () => {
    expect(text("README.md").split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  const includes = pages.flatMap((page) =>
    [...text(page).matchAll(/<!-- include: (\S+) -->\n```\w*\n([\s\S]*?)\n```\n/g)].map((m) => ({
      page,
      file: m[1],
      body: m[2],
    }))
  );

  test.each(includes.map((i) => [`${i.page} ← ${i.file}`, i] as const))("%s is the file, verbatim", (_, include) => {
    // `npm run docs:includes` rewrites the blocks from the files.
    expect(include.body).toBe(fs.readFileSync(path.join(repo, include.file), "utf8").trimEnd());
  });

  test("every include marker is followed by a fenced block (none is left dangling)", () => {
    const markers = pages.reduce((n, page) => n + [...text(page).matchAll(/<!-- include: /g)].length, 0);
    expect(markers).toBe(includes.length);
  });

  test("every program and config in examples/ is shown in a guide or the README", () => {
    const files = fs.readdirSync(path.join(repo, "examples"), { recursive: true }).map(String)
      .filter((f) => /\.(ts|json)$/.test(f) && !f.startsWith("fake")).map((f) =>
        `examples/${f.split(path.sep).join("/")}`
      );
    const shown = new Set(includes.map((i) => i.file));
    expect(files.filter((f) => !shown.has(f) && f !== "examples/mcp-config/.cursor/mcp.json")).toEqual([]);
  });

  const links = pages.flatMap((page) =>
    [...prose(text(page)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => ({ page, target }))
  );

  test.each(links.map((l) => [`${l.page} → ${l.target}`, l] as const))("%s resolves", (_, { page, target }) => {
    const [file, anchor] = target.split("#");
    const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
    expect(fs.existsSync(path.join(repo, resolved)), resolved).toBe(true);
    if (anchor !== undefined) expect([...anchors(text(resolved))]).toContain(anchor);
  });

  // npm shows the README with no repository to resolve links against: the guides and
  // examples it links to ship in the package, so they open from node_modules.
  const shipped = (JSON.parse(text("package.json")) as { files: string[] }).files
    .map((entry) => picomatch(entry.endsWith("/") ? `${entry}**` : entry, { dot: true }));
  test.each(links.map((l) => [`${l.page} → ${l.target}`, l] as const))(
    "%s is in the npm package",
    (_, { page, target }) => {
      const [file] = target.split("#");
      const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      const asFile = resolved.replace(/\/$/, "/x");
      expect({ resolved, shipped: shipped.some((matches) => matches(asFile) || matches(resolved)) })
        .toEqual({ resolved, shipped: true });
    },
  );
});
