import { describe, expect, it } from "vitest";
import { Buffer } from "node:buffer";
import { denoByteSearch } from "../src/hosts/_deno_byte_search.ts";
import { portableByteSearch } from "../src/core/search/byte_search.ts";

// Under Deno with FFI: libc's memchr / memmem; elsewhere the typed array's searches. Either must find
// exactly what the portable search finds, for one byte and for a sequence, from every start.
describe("the Deno host's byte search", () => {
  const search = denoByteSearch();
  const text = Buffer.from("abc\nEXPORT_SYMBOL_GPL(x);\n\u0000tail EXPORT end\nE");
  const cases: (number | Uint8Array)[] = [
    0x0a,
    0x00,
    0x45,
    0x7a,
    Buffer.from("EXPORT"),
    Buffer.from("GPL(x)"),
    Buffer.from("nope"),
    Buffer.from("E"),
  ];

  it("finds what the portable search finds, from every index, in a Buffer, a Uint8Array and a subarray", () => {
    const views = [text, new Uint8Array(text), new Uint8Array(text).subarray(3)];
    for (const bytes of views) {
      const mine = search.view(bytes);
      const theirs = portableByteSearch.view(new Uint8Array(bytes));
      for (const needle of cases) {
        for (let from = 0; from <= bytes.length + 1; from++) {
          expect(mine.indexOf(needle, from)).toBe(theirs.indexOf(needle, from));
        }
      }
    }
  });

  it("gives -1 in empty bytes and past the end", () => {
    const view = search.view(new Uint8Array(0));
    expect(view.indexOf(0x41, 0)).toBe(-1);
    expect(view.indexOf(Buffer.from("A"), 0)).toBe(-1);
    expect(search.view(text).indexOf(0x45, text.length)).toBe(-1);
  });
});
