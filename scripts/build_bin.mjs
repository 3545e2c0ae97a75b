// The `paddock` command as npm runs it: the compiled CLI (`<dist>/cli.js`, from
// `tsc`) bundled with its dependencies into `<dist>/bin/`, its grep worker an
// entry of its own beside it (the CLI starts `./_search_worker.js` next to the
// module that starts it). Node loads one module graph of a few files instead of
// ~400 (the MCP SDK, zod, the tools): `paddock mcp` answers `initialize`
// about 250 ms sooner on the 2-core machine (docs/benchmarks.md). The library
// (`dist/mod.js`) is not bundled: a user's own zod and SDK stay theirs.
//
//   node scripts/build_bin.mjs <dist>      (run by `npm run build`)
//
// Writes `<dist>/bin/THIRD_PARTY_LICENSES.txt`: the license of every package
// bundled, as their MIT / ISC / BSD terms ask of a copy.
import * as esbuild from "esbuild";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";

const dist = path.resolve(process.argv[2] ?? "dist");
const out = path.join(dist, "bin");
fs.rmSync(out, { recursive: true, force: true });

const result = await esbuild.build({
  entryPoints: {
    cli: path.join(dist, "cli.js"),
    _search_worker: path.join(dist, "src", "hosts", "_search_worker.js"),
  },
  outdir: out,
  bundle: true,
  // The server's modules stay a later import (`paddock mcp` starts its grep threads before they load).
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "_chunk-[hash]",
  // koffi is a native module, loaded at run time from the installed package (`createRequire`).
  external: ["koffi"],
  // CommonJS packages bundled into ES modules call `require` for Node's own modules.
  banner: {
    js:
      'import { createRequire as __paddockRequire } from "node:module";\nconst require = __paddockRequire(import.meta.url);',
  },
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

// Each bundled package once, from its package.json up: its name, version and license text.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const at = input.lastIndexOf("node_modules/");
  if (at === -1) continue;
  const rest = input.slice(at + "node_modules/".length).split("/");
  const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  const folder = path.resolve(input.slice(0, at + "node_modules/".length) + name);
  if (packages.has(folder)) continue;
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
  const license = fs.readdirSync(folder).find((file) => /^(licen[cs]e|copying)([.-]|$)/i.test(file));
  if (license === undefined) throw new Error(`build_bin: ${name} has no license file to ship with the bundle`);
  packages.set(folder, { name, version: manifest.version, text: fs.readFileSync(path.join(folder, license), "utf8") });
}
const notices = [...packages.values()]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map(({ name, version, text }) => `${name}@${version}\n\n${text.trim()}\n`);
fs.writeFileSync(
  path.join(out, "THIRD_PARTY_LICENSES.txt"),
  `The packages bundled into the paddock command (dist/bin/):\n\n${notices.join("\n---\n\n")}`,
);
