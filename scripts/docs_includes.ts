// Rewrites every fenced block that follows `<!-- include: FILE -->` in README.md and
// docs/*.md with FILE's current text (test/docs.test.ts fails until they are equal).
//   npm run docs:includes
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");
const pages = [
  "README.md",
  ...fs.readdirSync(path.join(repo, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
for (const page of pages) {
  const before = fs.readFileSync(path.join(repo, page), "utf8");
  const after = before.replace(
    /(<!-- include: (\S+) -->\n```\w*\n)[\s\S]*?\n```\n/g,
    (_, head: string, file: string) => `${head}${fs.readFileSync(path.join(repo, file), "utf8").trimEnd()}\n\`\`\`\n`,
  );
  if (after !== before) {
    fs.writeFileSync(path.join(repo, page), after);
    console.log(`updated ${page}`);
  }
}
