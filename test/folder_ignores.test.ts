import ignore from "ignore";
import { describe, expect, test } from "vitest";
import { ignorePrefilter } from "../src/core/search/ignore_prefilter.ts";
import { FolderIgnores, type IgnoreFrame, isIgnored } from "../src/core/search/ignore_frame.ts";

// The reference: git's order (the deepest file with an opinion wins), every rule tested, no prefilter.
function reference(frames: readonly IgnoreFrame[], canonical: string, isDirectory: boolean): boolean {
  for (let i = frames.length - 1; i >= 0; i--) {
    const { base, rules } = frames[i];
    const relative = base === "" ? canonical : canonical.slice(base.length + 1);
    const result = rules.test(isDirectory ? `${relative}/` : relative);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

// .gitignore files at three levels, with rules that override each other down the tree.
const TEXTS: Record<string, string> = {
  "": ".*\n!.gitignore\n*.o\n/build/\nlogs/\ncscope.*\n!keep.o\n**/tmp\ndoc/*.txt\n",
  "d": "!*.o\n*.log\n/only-here\nsub/\n!.hidden\n",
  "d/e": "*\n!*.c\n!*/\n",
};

function frame(base: string): IgnoreFrame {
  const text = TEXTS[base];
  return { base, rules: ignore({ ignorecase: false }).add(text), may: ignorePrefilter(text) };
}

const FOLDERS = ["", "d", "d/e", "d/e/f", "d/sub", "x", "x/doc", "build", "d/e/tmp"];
const NAMES = [
  "a.o",
  "keep.o",
  ".hidden",
  ".gitignore",
  "build",
  "logs",
  "cscope.out",
  "tmp",
  "x.txt",
  "main.c",
  "only-here",
  "run.log",
  "sub",
  "README",
];

describe("FolderIgnores", () => {
  test("answers as the rules do (git's order, no prefilter), through isIgnored, built at once or folder by folder as a walk goes down", () => {
    let compared = 0;
    for (const folder of FOLDERS) {
      // The frames that apply in the folder: its own and its ancestors' .gitignore files, shallowest first.
      const bases = Object.keys(TEXTS).filter((base) =>
        base === "" || folder === base || folder.startsWith(`${base}/`)
      );
      const frames = bases.map(frame);
      const atOnce = FolderIgnores.of(frames, folder);
      // As the walk builds it: the root's rules, then each folder entered and its own file added.
      let walked = FolderIgnores.NONE.with(frame(""));
      const segments = folder === "" ? [] : folder.split("/");
      for (let depth = 0; depth < segments.length; depth++) {
        walked = walked.enter(segments[depth]);
        const here = segments.slice(0, depth + 1).join("/");
        if (here in TEXTS) walked = walked.with(frame(here));
      }
      for (const name of NAMES) {
        for (const isDirectory of [false, true]) {
          const canonical = folder === "" ? name : `${folder}/${name}`;
          const expected = reference(frames, canonical, isDirectory);
          expect(isIgnored(frames, canonical, isDirectory), canonical).toBe(expected);
          expect({ canonical, isDirectory, ignored: atOnce.ignores(name, isDirectory) }).toEqual({
            canonical,
            isDirectory,
            ignored: expected,
          });
          expect({ canonical, isDirectory, ignored: walked.ignores(name, isDirectory) }).toEqual({
            canonical,
            isDirectory,
            ignored: expected,
          });
          compared++;
        }
      }
    }
    expect(compared).toBe(FOLDERS.length * NAMES.length * 2);
  });

  test("ignores nothing without rules, and applies the deepest frame with an opinion", () => {
    expect(FolderIgnores.NONE.enter("d").ignores("a.o", false)).toBe(false);
    const root = FolderIgnores.NONE.with(frame(""));
    expect(root.ignores("a.o", false)).toBe(true);
    expect(root.ignores("keep.o", false)).toBe(false);
    // d/.gitignore re-includes *.o below d.
    expect(root.enter("d").with(frame("d")).ignores("a.o", false)).toBe(false);
    expect(root.enter("x").ignores("a.o", false)).toBe(true);
  });
});
