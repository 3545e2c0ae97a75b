/**
 * Ways a `node_process` script might read a file outside the workspace
 * through the module loader rather than the file APIs: every kind of
 * `import` (with each attribute type), `require` of each file kind, workers,
 * data: and blob: URLs, the runtimes' own APIs. Each trick names the outside
 * files by absolute literal paths written into the source, because a literal
 * is what Deno's loader reads without checking `--allow-read`.
 *
 * A trick prints whatever it obtained, so "the secret does not appear in the
 * output" is the whole assertion. Replayed by `test/node_process_loader.test.ts`
 * under the runtime permissions and inside the OS sandbox, on Node, Deno and Bun.
 *
 * @module
 */

/** Where a trick's files are: absolute host paths, written literally into the sources. */
export interface TrickPaths {
  /** The outside folder (holds the `OUTSIDE_FILES`). */
  outside: string;
  /** The workspace root. */
  root: string;
}

/** One loader trick. */
export interface LoaderTrick {
  /** What it tries, as a sentence fragment. */
  name: string;
  /** The script's source. */
  source: (paths: TrickPaths) => string;
  /** Files the agent could have written into the workspace first (relative path → content). */
  files?: (paths: TrickPaths) => Record<string, string>;
  /** The trick prints `RAN` (its source is valid CommonJS). @default true */
  runs?: boolean;
}

/**
 * The outside files every trick aims at, each holding the secret in its own
 * form: text, JSON, a CommonJS and an ES module (which also post the secret
 * when run as a worker), and a fake native addon.
 */
export function outsideFiles(secret: string): Record<string, string> {
  const json = JSON.stringify(secret);
  return {
    "secret.txt": secret,
    "secret.json": JSON.stringify({ secret }),
    "secret.cjs":
      `module.exports = ${json};\ntry { require("node:worker_threads").parentPort?.postMessage(${json}); } catch {}\n`,
    "secret.mjs":
      `export default ${json};\nif (typeof self !== "undefined" && typeof self.postMessage === "function" && typeof window === "undefined") self.postMessage(${json});\n`,
    "secret.node": secret,
  };
}

const q = JSON.stringify;
const url = (path: string): string => q(`file://${path}`);
// Prints what a promise gave, or its error; the error text may hold the secret too.
const show = (promise: string): string =>
  `${promise}.then((got) => console.log("GOT", JSON.stringify(got)), (e) => console.log("ERR", String(e && e.message)));`;
const attempt = (expression: string): string =>
  `try { console.log("GOT", JSON.stringify(${expression})); } catch (e) { console.log("ERR", String(e && e.message)); }`;
const webWorker = (specifier: string): string =>
  `try { const w = new Worker(${specifier}, { type: "module" });
    w.onmessage = (e) => { console.log("GOT", e.data); w.terminate(); };
    w.onerror = (e) => { console.log("ERR", String(e.message)); e.preventDefault(); w.terminate(); };
  } catch (e) { console.log("ERR", String(e && e.message)); }`;
const threadWorker = (specifier: string, options = "{}"): string =>
  `try { const { Worker } = require("node:worker_threads"); const w = new Worker(${specifier}, ${options});
    w.on("message", (m) => { console.log("GOT", m); w.terminate(); });
    w.on("error", (e) => console.log("ERR", String(e && e.message)));
  } catch (e) { console.log("ERR", String(e && e.message)); }`;
const esmImportingSecret = (p: TrickPaths): string =>
  `import s from ${q(`${p.outside}/secret.json`)} with { type: "json" };\nexport default s;\n`;

/** The table. */
export const LOADER_TRICKS: readonly LoaderTrick[] = [
  // import() with a literal specifier and each attribute type
  {
    name: "import() of a text file (with type: text)",
    source: (p) => show(`import(${url(`${p.outside}/secret.txt`)}, { with: { type: "text" } })`),
  },
  {
    name: "import() of a file as bytes (with type: bytes)",
    source: (p) =>
      show(
        `import(${
          url(`${p.outside}/secret.txt`)
        }, { with: { type: "bytes" } }).then((m) => new TextDecoder().decode(m.default))`,
      ),
  },
  {
    name: "import() of JSON (with type: json)",
    source: (p) => show(`import(${q(`${p.outside}/secret.json`)}, { with: { type: "json" } })`),
  },
  { name: "import() of an .mjs module", source: (p) => show(`import(${q(`${p.outside}/secret.mjs`)})`) },
  { name: "import() of a .cjs module", source: (p) => show(`import(${url(`${p.outside}/secret.cjs`)})`) },
  {
    name: "import() through import.meta.resolve in a workspace module",
    source: () => show(`import("./resolve.mjs")`),
    files: (p) => ({
      "resolve.mjs": `export default (await import(import.meta.resolve(${q(`${p.outside}/secret.mjs`)}))).default;\n`,
    }),
  },
  // static import syntax in the source itself
  {
    name: "a static import of JSON in the script",
    runs: false,
    source: (p) =>
      `import s from ${q(`${p.outside}/secret.json`)} with { type: "json" };\nconsole.log("GOT", JSON.stringify(s));`,
  },
  {
    name: "a static import of text in the script",
    runs: false,
    source: (p) => `import s from ${url(`${p.outside}/secret.txt`)} with { type: "text" };\nconsole.log("GOT", s);`,
  },
  // require() of each file kind
  { name: "require() of .json", source: (p) => attempt(`require(${q(`${p.outside}/secret.json`)})`) },
  { name: "require() of .cjs", source: (p) => attempt(`require(${q(`${p.outside}/secret.cjs`)})`) },
  { name: "require() of .mjs", source: (p) => attempt(`require(${q(`${p.outside}/secret.mjs`)})`) },
  { name: "require() of .node", source: (p) => attempt(`require(${q(`${p.outside}/secret.node`)})`) },
  {
    name: "require() through module.createRequire(outside)",
    source: (p) => attempt(`require("node:module").createRequire(${q(`${p.outside}/`)})("./secret.json")`),
  },
  // through files the agent wrote into the workspace first
  {
    name: "require() of a workspace .cjs that requires the outside JSON",
    source: () => attempt(`require("./lib.cjs")`),
    files: (p) => ({ "lib.cjs": `module.exports = require(${q(`${p.outside}/secret.json`)});\n` }),
  },
  {
    name: "require() of a workspace .mjs that imports the outside JSON",
    source: () => attempt(`require("./esm.mjs")`),
    files: (p) => ({ "esm.mjs": esmImportingSecret(p) }),
  },
  {
    name: "require() of a workspace .js written as an ES module",
    source: () => attempt(`require("./esm.js")`),
    files: (p) => ({ "esm.js": esmImportingSecret(p) }),
  },
  {
    name: "require() of a workspace .ts module",
    source: () => attempt(`require("./esm.ts")`),
    files: (p) => ({ "esm.ts": esmImportingSecret(p) }),
  },
  {
    name: "import() of a workspace .mjs that imports the outside JSON",
    source: () => show(`import("./esm.mjs")`),
    files: (p) => ({ "esm.mjs": esmImportingSecret(p) }),
  },
  {
    name: "module._compile() as an ES module of a workspace file",
    source: (p) =>
      attempt(
        `(() => { const M = require("node:module"); const m = new M(${
          q(`${p.root}/esm.mjs`)
        }); m._compile(require("node:fs").readFileSync("esm.mjs", "utf8"), ${
          q(`${p.root}/esm.mjs`)
        }, "module"); return m.exports; })()`,
      ),
    files: (p) => ({ "esm.mjs": esmImportingSecret(p) }),
  },
  {
    name: "createRequire() in a workspace ES module loading another one",
    source: () => show(`import("./bridge.mjs")`),
    files: (p) => ({
      "bridge.mjs":
        `import { createRequire } from "node:module";\nexport default createRequire(import.meta.url)("./esm.mjs");\n`,
      "esm.mjs": esmImportingSecret(p),
    }),
  },
  // data: and blob: URLs
  {
    name: "import() of a data: URL that imports the outside JSON",
    source: (p) =>
      show(
        `import(${
          q(`data:text/javascript,import s from ${
            q(`${p.outside}/secret.json`)
          } with { type: "json" }; export default s;`)
        })`,
      ),
  },
  {
    name: "import() of a blob: URL that imports the outside JSON",
    source: (p) =>
      show(
        `import(URL.createObjectURL(new Blob([${
          q(`import s from ${q(`${p.outside}/secret.json`)} with { type: "json" }; export default s;`)
        }], { type: "text/javascript" })))`,
      ),
  },
  // workers
  {
    name: "a module Worker on a workspace file that imports the outside JSON",
    source: (p) => webWorker(q(`file://${p.root}/worker.mjs`)),
    files: (p) => ({
      "worker.mjs": `import s from ${
        q(`${p.outside}/secret.json`)
      } with { type: "json" };\nself.postMessage(JSON.stringify(s));\n`,
    }),
  },
  { name: "a module Worker on the outside module", source: (p) => webWorker(url(`${p.outside}/secret.mjs`)) },
  {
    name: "a module Worker on a data: URL that imports the outside JSON",
    source: (p) =>
      webWorker(
        q(`data:text/javascript,import s from ${
          q(`${p.outside}/secret.json`)
        } with { type: "json" }; self.postMessage(JSON.stringify(s));`),
      ),
  },
  { name: "a worker_threads Worker on the outside .cjs", source: (p) => threadWorker(q(`${p.outside}/secret.cjs`)) },
  {
    name: "a worker_threads Worker requiring a workspace ES module",
    source: () => threadWorker(q("./thread.cjs")),
    files: (p) => ({
      "thread.cjs":
        `let r; try { r = JSON.stringify(require("./esm.mjs")); } catch (e) { r = String(e.message); }\nrequire("node:worker_threads").parentPort.postMessage(r);\n`,
      "esm.mjs": esmImportingSecret(p),
    }),
  },
  // eval and friends
  {
    name: "import() inside indirect eval",
    source: (p) => show(`(0, eval)(${q(`import(${url(`${p.outside}/secret.txt`)}, { with: { type: "text" } })`)})`),
  },
  {
    name: "import() inside node:vm",
    source: (p) =>
      show(
        `Promise.resolve().then(() => require("node:vm").runInThisContext(${
          q(`import(${q(`${p.outside}/secret.json`)}, { with: { type: "json" } })`)
        }))`,
      ),
  },
  {
    name: "import() inside Deno's internal evalContext",
    source: (p) =>
      show(
        `Promise.resolve().then(() => { const r = Deno[Deno.internal].core.evalContext(${
          q(`import(${q(`${p.outside}/secret.json`)}, { with: { type: "json" } })`)
        }, "file:///x.js"); if (r[1]) throw r[1].thrown; return r[0]; })`,
      ),
  },
  // the runtimes' own file APIs and built-ins
  {
    name: "node:fs readFileSync",
    source: (p) => attempt(`require("node:fs").readFileSync(${q(`${p.outside}/secret.txt`)}, "utf8")`),
  },
  {
    name: "node:fs/promises readFile",
    source: (p) => show(`require("node:fs/promises").readFile(${q(`${p.outside}/secret.txt`)}, "utf8")`),
  },
  {
    name: "import() of node:fs, then readFileSync",
    source: (p) => show(`import("node:fs").then((fs) => fs.readFileSync(${q(`${p.outside}/secret.txt`)}, "utf8"))`),
  },
  {
    name: "a child process (cat)",
    source: (p) =>
      attempt(
        `require("node:child_process").execFileSync("cat", [${q(`${p.outside}/secret.txt`)}], { encoding: "utf8" })`,
      ),
  },
  { name: "Deno.readTextFileSync", source: (p) => attempt(`Deno.readTextFileSync(${q(`${p.outside}/secret.txt`)})`) },
  {
    name: "Deno.readFile (async)",
    source: (p) =>
      show(
        `Promise.resolve().then(() => Deno.readFile(${
          q(`${p.outside}/secret.txt`)
        })).then((b) => new TextDecoder().decode(b))`,
      ),
  },
  {
    name: "Deno.Command (cat)",
    source: (p) =>
      attempt(
        `new TextDecoder().decode(new Deno.Command("cat", { args: [${
          q(`${p.outside}/secret.txt`)
        }] }).outputSync().stdout)`,
      ),
  },
  {
    name: "fetch() of a file: URL",
    source: (p) => show(`fetch(${url(`${p.outside}/secret.txt`)}).then((r) => r.text())`),
  },
];
