import { describe, expect, test } from "vitest";
import type { ByteView, Host } from "../host.ts";
import { createGrepTool, isAbortError } from "../mod.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { nodeByteSearch } from "../src/hosts/_node_byte_search.ts";
import {
  findFolded,
  findNeedle,
  foldedNeedleOf,
  needleOf,
  portableByteSearch,
} from "../src/core/search/byte_search.ts";
import { compileLineMatcher, type LineMatcher } from "../src/core/search/line_matcher.ts";
import { requiredLiterals } from "../src/core/search/required_literal.ts";
import { type GrepOutputMode, searchText } from "../src/core/search/search_text.ts";
import { diskFixture } from "./helpers/fixture.ts";

const encode = (text: string) => new TextEncoder().encode(text);

describe("requiredLiterals()", () => {
  test.each([
    ["struct \\w+_operations \\{", ["struct ", "_operations {"]],
    ["#define [A-Z_]+_MASK\\b", ["#define ", "_MASK"]],
    ["abc", ["abc"]],
    ["ab?c", ["a", "c"]],
    ["ab*c", ["a", "c"]],
    ["ab+c", ["ab", "c"]],
    ["a{2}b", ["a", "b"]],
    ["a{0,3}b", ["b"]],
    ["(foo)bar", ["bar"]],
    ["(x|y)z", ["z"]],
    ["x[abc]y", ["x", "y"]],
    ["[]a]b", ["b"]],
    ["a\\.b", ["a.b"]],
    ["a\\db", ["a", "b"]],
    ["a\\p{Greek}b\\pLc", ["a", "b", "c"]],
    ["a\\x41b", ["a", "b"]],
    ["^foo$", ["foo"]],
    ["a.b", ["a", "b"]],
    ["é+x", ["é", "x"]],
    ["a\\nb", ["a", "b"]],
  ])("%s requires %j", (pattern, runs) => {
    expect(requiredLiterals(pattern)).toEqual(runs);
  });

  test.each(["a|b", "foo|bar", "(?i)abc", "\\Qa.b\\E", "[a-z]+", "\\w+", ".*"])(
    "%s requires no run the search can rely on",
    (pattern) => {
      expect(requiredLiterals(pattern)).toEqual([]);
    },
  );
});

describe("findFolded()", () => {
  test.each([["native", nodeByteSearch], ["portable", portableByteSearch]] as const)(
    "finds an ASCII needle in any ASCII case, and only in ASCII (%s)",
    (_name, search) => {
      const text = "x Use-After-FREE; use-after-free \u00e9 USE-AFTER-FRE a->b -A-a x- -x {} -{ {-}- ab-";
      const data = encode(text);
      const lowered = new TextDecoder().decode(data.map((byte) => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte)));
      const view = search.view(data);
      // Needles whose rarest byte is a letter, or no letter: in the middle, first, last, beside another.
      const needles = [
        "use-after-free",
        "USE",
        "-",
        "e ",
        "after-fre",
        "zz",
        "-a",
        "a-",
        "b-",
        "-{",
        "{-}",
        "}-",
        "x-",
      ];
      for (const needle of needles) {
        const prepared = foldedNeedleOf(needle);
        for (let from = 0; from <= data.length; from++) {
          const bytesLowered = new TextEncoder().encode(lowered);
          const expected = indexOfBytes(bytesLowered, encode(needle.toLowerCase()), from);
          expect(findFolded(data, view, prepared, from)).toBe(expected);
        }
      }
    },
  );
});

function indexOfBytes(data: Uint8Array, needle: Uint8Array, from: number): number {
  for (let at = from; at + needle.length <= data.length; at++) {
    if (needle.every((byte, k) => data[at + k] === byte)) return at;
  }
  return -1;
}

describe("findNeedle()", () => {
  test.each([["native", nodeByteSearch], ["portable", portableByteSearch]] as const)(
    "finds every occurrence as indexOf does (%s)",
    (_name, search) => {
      const text = "xx_operations {; _operations { struct EXPORT_SYMBOL_GPL(a) -- Z";
      const data = encode(text);
      const view = search.view(data);
      for (const needle of ["_operations {", "struct ", "EXPORT_SYMBOL_GPL", "Z", "--", "zz", " "]) {
        const prepared = needleOf(encode(needle));
        for (let from = 0; from <= text.length; from++) {
          expect(findNeedle(data, view, prepared, from)).toBe(text.indexOf(needle, from));
        }
      }
    },
  );

  test("on a view whose calls cost (wholeSequences): one call for the rarest byte, then one for the whole needle", () => {
    const calls: string[] = [];
    const counting = (data: Uint8Array): ByteView => {
      const inner = portableByteSearch.view(data);
      return {
        wholeSequences: true,
        indexOf: (needle, from) => {
          calls.push(typeof needle === "number" ? `byte@${from}` : `needle@${from}`);
          return inner.indexOf(needle, from);
        },
      };
    };
    const needle = needleOf(encode("EXPORT_SYMBOL_GPL")); // scanned for by its rarest byte, Y
    const without = encode("no such byte here, lower case only");
    expect(findNeedle(without, counting(without), needle, 0)).toBe(-1);
    expect(calls).toEqual([`byte@${needle.rare}`]);
    calls.length = 0;
    const text = "Y Y Y EXPORT_SYMBOL_GP Y EXPORT_SYMBOL_GPL";
    const data = encode(text);
    for (let from = 0; from <= text.length; from++) {
      calls.length = 0;
      expect(findNeedle(data, counting(data), needle, from)).toBe(text.indexOf("EXPORT_SYMBOL_GPL", from));
      expect(calls.length).toBeLessThanOrEqual(2);
    }
  });
});

describe("nodeByteSearch.alloc()", () => {
  test("gives zeroed bytes whose subarrays are their own views, and finds what is written into them", () => {
    const bytes = nodeByteSearch.alloc!(64);
    expect([...bytes]).toEqual(new Array(64).fill(0));
    bytes.set(encode("EXPORT_SYMBOL_GPL"), 20);
    const window = bytes.subarray(10, 50);
    expect(nodeByteSearch.view(window)).toBe(window);
    expect(findNeedle(window, nodeByteSearch.view(window), needleOf(encode("SYMBOL")), 0)).toBe(17);
    // A plain Uint8Array still gets a view (a copy-free one) that searches the same bytes.
    const plain = new Uint8Array(window);
    expect(nodeByteSearch.view(plain)).not.toBe(plain);
    expect(findNeedle(plain, nodeByteSearch.view(plain), needleOf(encode("SYMBOL")), 0)).toBe(17);
  });
});

// Files that exercise every way bytes and decoded lines differ.
const FILES: Record<string, string> = {
  plain: "alpha\nbeta use-after-free\ngamma\n",
  crlf: "one\r\nUse-After-Free\r\nthree\r",
  bom: "\uFEFFuse-after-free at start\nsecond\n",
  noFinalNewline: "a\nb USE-AFTER-FREE",
  invalid: "bad \xff\xfe bytes use-after-free\n\xc3\n",
  longS: "u\u017Fe-after-free\nK\u212Aelvin\n",
  many: "struct file_operations {\nstruct x_operations{\nstruct y_operations {\n#define A_MASK 1\n#define B_MASKS 2\n",
  empty: "",
  blankLines: "\n\n\nx\n",
};

const PATTERNS: Array<[string, { literal?: boolean; ignoreCase?: boolean }]> = [
  ["use-after-free", { literal: true }],
  ["use-after-free", { literal: true, ignoreCase: true }],
  ["USE-AFTER", { ignoreCase: true }],
  ["struct \\w+_operations \\{", {}],
  ["#define [A-Z_]+_MASK\\b", {}],
  ["kk", { ignoreCase: true }],
  ["^$", {}],
  ["free$", {}],
  ["\\Afree", {}],
  ["at start", { literal: true }],
  ["\uFFFD", { literal: true }],
];

// The same matcher with no prefilter: every file decoded, every line matched.
function reference(matcher: LineMatcher): LineMatcher {
  return {
    mayMatch: (text) => matcher.mayMatch(text),
    find: (line) => matcher.find(line),
    prefilter: { kind: "none" },
    exact: false,
  };
}

describe("searchText()", () => {
  const modes: GrepOutputMode[] = ["content", "count", "files_with_matches"];
  test.each([["native", nodeByteSearch], ["portable", portableByteSearch]] as const)(
    "gives what decoding every line gives, for every pattern, file and mode (%s)",
    (_name, search) => {
      for (const [pattern, options] of PATTERNS) {
        const matcher = compileLineMatcher(pattern, options);
        for (const [name, text] of Object.entries(FILES)) {
          // Latin-1 strings stand for raw bytes where the file holds invalid UTF-8.
          const bytes = name === "invalid" ? Uint8Array.from(text, (c) => c.charCodeAt(0)) : encode(text);
          for (const outputMode of modes) {
            const request = { matcher, outputMode, context: 1, cap: 10, maxLineChars: 500 };
            const fast = searchText(bytes, request, search);
            const slow = searchText(bytes, { ...request, matcher: reference(matcher) }, search);
            expect({ pattern, name, outputMode, ...fast }).toEqual({ pattern, name, outputMode, ...slow });
          }
        }
      }
    },
  );

  test("counts the lines of a plain text on the bytes, without decoding", () => {
    const matcher = compileLineMatcher("ab", { literal: true });
    expect(matcher.exact).toBe(true);
    const bytes = encode("ab ab\nxx\nab\nabab");
    expect(
      searchText(bytes, { matcher, outputMode: "count", context: 0, cap: 10, maxLineChars: 500 }, nodeByteSearch).count,
    ).toBe(3);
  });

  test("a NUL byte in the first 8 KiB makes a file binary, one after it does not", () => {
    const matcher = compileLineMatcher("x", { literal: true });
    const request = { matcher, outputMode: "count" as const, context: 0, cap: 10, maxLineChars: 500 };
    expect(searchText(encode("x\0x"), request, nodeByteSearch).binary).toBe(true);
    const late = new Uint8Array(9000).fill(0x78);
    late[8500] = 0;
    expect(searchText(late, request, nodeByteSearch)).toEqual({ matches: [], count: 1 });
  });
});

// A host that records which files are opened, and can run a hook on each read.
function recordingHost(onRead?: (path: string) => void): { host: Host; opened: string[] } {
  const inner = createAutoHost();
  const opened: string[] = [];
  const host: Host = {
    ...inner,
    open: (path, options) => {
      opened.push(path.slice(path.lastIndexOf("/") + 1));
      onRead?.(path);
      return inner.open(path, options);
    },
  };
  if (inner.readSync !== undefined) {
    const readSync = inner.readSync;
    host.readSync = (path, into, head) => {
      opened.push(path.slice(path.lastIndexOf("/") + 1));
      onRead?.(path);
      return readSync(path, into, head);
    };
  }
  return { host, opened };
}

describe("grep at scale, by counting work", () => {
  const TREE = [
    "src/",
    "src/a.h=#define X_MASK 1\n",
    "src/a.c=#define Y_MASK 2\n",
    "src/b.h=nothing\n",
    "docs/c.md=X_MASK\n",
  ];

  test("a glob by name prunes during the walk: only the files it names are opened", async () => {
    const { host, opened } = recordingHost();
    const fixture = await diskFixture(TREE, { host });
    try {
      const grep = createGrepTool(fixture.workspace);
      const result = await grep.execute({ pattern: "#define [A-Z_]+_MASK\\b", glob: "*.h" });
      expect(result).toMatchObject({ matches: [{ path: "src/a.h", line: 1, column: 1, text: "#define X_MASK 1" }] });
      expect(opened.filter((name) => name !== ".gitignore").sort()).toEqual(["a.h", "b.h"]);
    } finally {
      fixture.cleanup();
    }
  });

  test("a path glob walks only below its literal folders", async () => {
    const { host, opened } = recordingHost();
    const fixture = await diskFixture(TREE, { host });
    try {
      const grep = createGrepTool(fixture.workspace);
      const result = await grep.execute({ pattern: "MASK", glob: "src/**/*.c", output_mode: "files_with_matches" });
      expect(result).toMatchObject({ files: ["src/a.c"] });
      expect(opened.filter((name) => name !== ".gitignore")).toEqual(["a.c"]);
    } finally {
      fixture.cleanup();
    }
  });

  test("an abort ends the call after the file being read, and a result never comes", async () => {
    const tree = Array.from({ length: 200 }, (_, i) => `d/f${String(i).padStart(3, "0")}.txt=line ${i}\n`);
    const controller = new AbortController();
    let reads = 0;
    const { host } = recordingHost(() => {
      if (++reads === 20) controller.abort();
    });
    const fixture = await diskFixture(tree, { host });
    try {
      const grep = createGrepTool(fixture.workspace);
      const error = await grep.execute({ pattern: "line", output_mode: "count" }, { signal: controller.signal }).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(isAbortError(error)).toBe(true);
      expect(reads).toBeLessThanOrEqual(21);
    } finally {
      fixture.cleanup();
    }
  });

  test("a timer set before a long search runs before the search ends (the walk gives the event loop turns)", async () => {
    const tree = Array.from({ length: 300 }, (_, i) => `d/f${String(i).padStart(3, "0")}.txt=line ${i}\n`);
    let reads = 0;
    let readsWhenTimerRan = -1;
    // Each read takes a little CPU, so the walk's time slice is used up long before the last file;
    // the timer is set once the walk has started.
    const { host } = recordingHost(() => {
      if (++reads === 1) setTimeout(() => (readsWhenTimerRan = reads), 0);
      const until = Date.now() + 1;
      while (Date.now() < until) { /* busy */ }
    });
    const fixture = await diskFixture(tree, { host });
    try {
      const grep = createGrepTool(fixture.workspace, { maxResults: 1000 });
      const result = await grep.execute({ pattern: "line", output_mode: "count" });
      expect(result).toMatchObject({ total: 300 });
      expect(readsWhenTimerRan).toBeGreaterThanOrEqual(1);
      expect(readsWhenTimerRan).toBeLessThan(300);
    } finally {
      fixture.cleanup();
    }
  });

  test("a limit ends the walk at the first file past it: later files are never opened", async () => {
    const tree = Array.from({ length: 100 }, (_, i) => `d/f${String(i).padStart(3, "0")}.txt=hit\n`);
    const { host, opened } = recordingHost();
    const fixture = await diskFixture(tree, { host });
    try {
      const grep = createGrepTool(fixture.workspace);
      const result = await grep.execute({ pattern: "hit", literal: true, limit: 5 });
      expect(result).toMatchObject({ truncated: true });
      expect(opened.filter((name) => name !== ".gitignore")).toHaveLength(6);
    } finally {
      fixture.cleanup();
    }
  });
});
