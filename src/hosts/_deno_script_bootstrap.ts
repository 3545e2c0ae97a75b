/**
 * The fixed CommonJS bootstrap `node_process` runs under Deno.
 *
 * Deno's module loader does not apply `--allow-read` to modules it can see
 * statically: a literal `import("file:///…", { with: { type: "text" } })`,
 * `require("/abs/x.json")` or `require("./x.mjs")` in the entry's graph is
 * read unchecked (Deno 2.9). So the user's script is never named to the
 * loader: the bootstrap reads it as data (a checked read inside the
 * workspace) and compiles it as CommonJS, and everything the script then
 * loads goes through the runtime's checked paths — with one exception closed
 * here: loading an ES module synchronously (`require()` of ESM, or
 * `Module.prototype._compile(…, "module")`) reads that module's static imports
 * without the check. The bootstrap compiles every `require`d file as
 * CommonJS and refuses `require()` of `.mjs` / `.wasm` with `ERR_REQUIRE_ESM`
 * (use `import()`, which is checked); the replaced loader functions cannot be
 * put back. Workers get fresh loaders, but Deno checks their loads.
 * `test/cases/loader_tricks.ts` is the table of tricks this is held against.
 *
 * @module
 */

/**
 * The bootstrap's source for one script.
 *
 * @param scriptPath The user's script (absolute host path, inside the workspace).
 * @returns CommonJS source that drops `argv[1]` (Deno's entry) and runs the script.
 */
export function denoScriptBootstrap(scriptPath: string): string {
  return `"use strict";
(() => {
  const Module = require("node:module");
  const { readFileSync } = require("node:fs");
  const { dirname } = require("node:path");
  const file = ${JSON.stringify(scriptPath)};
  const compile = Module.prototype._compile;
  const fixed = (value) => ({ value, writable: false, configurable: false, enumerable: false });
  function compileCommonJs(content, filename) { return compile.call(this, content, filename, "commonjs"); }
  function loadCommonJs(module, filename) { module._compile(readFileSync(filename, "utf8"), filename); }
  function refuseEsm(_module, filename) {
    const error = new Error("require() of an ES module is not supported here: " + filename + "; use import()");
    error.code = "ERR_REQUIRE_ESM";
    throw error;
  }
  Object.defineProperty(Module.prototype, "_compile", fixed(compileCommonJs));
  const extensions = Module._extensions;
  for (const ext of Object.keys(extensions)) {
    if (ext === ".json" || ext === ".node") continue;
    Object.defineProperty(extensions, ext, { ...fixed(ext === ".mjs" || ext === ".wasm" ? refuseEsm : loadCommonJs), enumerable: true });
  }
  process.argv.splice(1, 1);
  const main = new Module(file, null);
  main.filename = file;
  main.paths = Module._nodeModulePaths(dirname(file));
  try {
    main._compile(readFileSync(file, "utf8"), file);
  } catch (error) {
    // Reported here, not by Deno's handler, which would quote this file's source.
    if (process.listenerCount("uncaughtException") > 0) throw error;
    console.error(error);
    process.exit(1);
  }
})();
`;
}
