import { describe, expect, it } from "vitest";
import { runtime } from "./helpers/runtime.ts";
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

  // ASCII case folding only: a byte outside ASCII is compared as it is.
  const folded = (bytes: Uint8Array) => bytes.map((byte) => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte));
  const reference = (bytes: Uint8Array, lower: Uint8Array, from: number) =>
    portableByteSearch.view(folded(bytes)).indexOf(lower, from);

  it(`${runtime === "deno" ? "with FFI, " : ""}finds a needle in any ASCII case as a scan of folded bytes does, across NULs and at the end, and leaves the byte past the view as it was`, () => {
    const text = Buffer.from("Use-After-FREE\u0000use-after\u0000-free USE-AFTER-FREE é\u00c9 tail use-after-freE");
    // A view inside a larger buffer (as grep's read buffer is), its next byte a marker.
    const backing = new Uint8Array(text.length + 8).fill(0x7e);
    backing.set(text, 3);
    const bytes = backing.subarray(3, 3 + text.length);
    const view = search.view(bytes);
    if (runtime === "deno") expect(typeof view.indexOfFolded).toBe("function");
    if (view.indexOfFolded === undefined) return; // no FFI: grep scans with indexOf (the test above)
    for (const needle of ["use-after-free", "e", "free", "after\u0000", "reE", "é", "tail use-after-free", "zz", "-"]) {
      const lower = folded(Buffer.from(needle));
      if (lower.includes(0) || lower.some((byte) => byte >= 0x80)) continue; // not what indexOfFolded takes
      for (let from = 0; from <= bytes.length + 1; from++) {
        expect({ needle, from, at: view.indexOfFolded(lower, from) }).toEqual({
          needle,
          from,
          at: reference(bytes, lower, from),
        });
      }
    }
    expect(backing[3 + text.length]).toBe(0x7e);
    expect([...backing.subarray(0, 3)]).toEqual([0x7e, 0x7e, 0x7e]);
    // A view that ends where its buffer ends has no byte to put a NUL in: no indexOfFolded.
    expect(search.view(new Uint8Array(text)).indexOfFolded).toBeUndefined();
  });

  it("gives -1 in empty bytes and past the end", () => {
    const view = search.view(new Uint8Array(0));
    expect(view.indexOf(0x41, 0)).toBe(-1);
    expect(view.indexOf(Buffer.from("A"), 0)).toBe(-1);
    expect(search.view(text).indexOf(0x45, text.length)).toBe(-1);
  });
});
