// Run by test/deno_ffi_deopt.test.ts as `deno run -A --v8-flags=--trace-deopt,… <this> <folder>`: the Deno
// host's FFI calls, each many times over, as a search makes them (the byte search's memchr and memmem,
// listHeld, readHeld and statHeld at a held folder), then a control: a 64-bit parameter given a number,
// which Deno's optimized call refuses ("not a BigInt"). Prints "done" to stderr at the end.
import * as fs from "node:fs";
import { denoByteSearch } from "../../src/hosts/_deno_byte_search.ts";
import { listHeld, readHeld, statHeld } from "../../src/hosts/_libc_at.ts";
import { procFdFolder } from "../../src/hosts/_node_handles.ts";

declare const Deno: {
  dlopen(path: string, symbols: Record<string, { parameters: string[]; result: string }>): {
    symbols: { memchr(bytes: Uint8Array, byte: number, length: number): number };
  };
};

const folder = process.argv[2];
const held = fs.openSync(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
const at = `${procFdFolder()}${held}`;
const text = new TextEncoder().encode("line one\nline two EXPORT_SYMBOL_GPL\n".repeat(200));
const needle = new TextEncoder().encode("EXPORT_SYMBOL_GPL");
const lower = new TextEncoder().encode("export_symbol_gpl");
const scratch = new Uint8Array(1 << 16);
let sum = 0;
for (let i = 0; i < 20_000; i++) {
  const view = denoByteSearch().view(text.subarray(0, text.length - 1 - (i % 7)));
  sum += view.indexOf(0x0a, i % 50) + view.indexOf(needle, i % 50) + (view.indexOfFolded?.(lower, i % 50) ?? 0);
  if (i % 4 === 0) {
    sum += listHeld(at, procFdFolder())?.length ?? 0;
    sum += readHeld(`${at}/a.txt`, procFdFolder(), fs.constants.O_RDONLY, 1 << 20, () => scratch)?.bytes.length ?? 0;
    sum += statHeld(held)?.size ?? 0;
  }
}
const control = Deno.dlopen("libc.so.6", { memchr: { parameters: ["buffer", "i32", "usize"], result: "i32" } });
function controlWithNumber(bytes: Uint8Array): number {
  return control.symbols.memchr(bytes, 0x0a, bytes.length);
}
function controlRound(): number {
  let found = 0;
  for (let i = 0; i < 1_000; i++) found += controlWithNumber(text) & 1;
  return found;
}
for (let round = 0; round < 300; round++) sum += controlRound();
fs.closeSync(held);
// On stderr: V8 writes its trace to stdout through its own buffer, which may split a line of ours.
console.error(sum > 0 ? "done" : "nothing found");
