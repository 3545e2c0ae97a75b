/**
 * The sample project `paddock demo` works on, shipped as data so it is part
 * of both the npm build and the JSR package: a tiny statistics module with a
 * real bug (`median` sorts numbers as strings) and a test script that finds it.
 *
 * @module
 */

/** Workspace-relative path → UTF-8 content. */
export const SAMPLE_PROJECT_FILES: Readonly<Record<string, string>> = Object.freeze({
  "README.md": `# tiny-stats

Small statistics helpers. Run the tests with \`node test.js\`.
`,
  "package.json": `{
  "name": "tiny-stats",
  "version": "1.0.0",
  "private": true,
  "scripts": { "test": "node test.js" }
}
`,
  "src/stats.js": `"use strict";

/** Arithmetic mean of a non-empty list of numbers. */
function mean(values) {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Middle value of a non-empty list (the mean of the two middle values for an even count). */
function median(values) {
  const sorted = [...values].sort();
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
}

module.exports = { mean, median };
`,
  "test.js": `"use strict";
const assert = require("node:assert");
const { mean, median } = require("./src/stats.js");

const cases = [
  ["mean of three numbers", () => assert.strictEqual(mean([1, 2, 3]), 2)],
  ["median of an odd count", () => assert.strictEqual(median([3, 1, 2]), 2)],
  ["median of an even count", () => assert.strictEqual(median([4, 1, 3, 2]), 2.5)],
  ["median of multi-digit numbers", () => assert.strictEqual(median([10, 9, 2]), 9)],
];

let failed = 0;
for (const [name, check] of cases) {
  try {
    check();
    console.log("ok   " + name);
  } catch (error) {
    failed++;
    console.log("FAIL " + name + ": got " + error.actual + ", expected " + error.expected);
  }
}
console.log(failed === 0 ? "all " + cases.length + " tests passed" : failed + " of " + cases.length + " tests failed");
process.exitCode = failed === 0 ? 0 : 1;
`,
});

/** The line holding the bug in `src/stats.js`, and its fix. */
export const SAMPLE_PROJECT_BUG: Readonly<{ path: string; before: string; after: string }> = Object.freeze({
  path: "src/stats.js",
  before: "const sorted = [...values].sort();",
  after: "const sorted = [...values].sort((a, b) => a - b);",
});
