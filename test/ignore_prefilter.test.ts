import ignore from "ignore";
import { describe, expect, test } from "vitest";
import { ignorePrefilter } from "../src/core/search/ignore_prefilter.ts";

// Rules of every shape a .gitignore has (the kernel's top file among them), and paths around them.
const RULES = [
  ".*",
  "*.a",
  "*.asn1.[ch]",
  "*.c.[012]*.*",
  "*.dtb.S",
  "*.o",
  "*.o.*",
  "*~",
  "\\#*#",
  "Module.symvers",
  "/linux",
  "/vmlinux.32",
  "/*.spec",
  "/snap/",
  "/include/config/",
  "/arch/*/include/generated/",
  "patches-*",
  "cscope.*",
  "sphinx_*/",
  "!.gitignore",
  "!.mailmap",
  "foo/**",
  "**/bar",
  "a/**/b",
  "x?z",
  "[Tt]est",
  "\\!bang",
  "trail\\ ",
  "deep/name",
  "  spaced  ",
  "*.tab.[ch]",
  "build/",
  "!keep.o",
  "**/logs/*.log",
  "doc/*.txt",
] as const;

const PATHS = [
  "linux",
  "include/linux/kernel.h",
  "vmlinux.32",
  "a.spec",
  "x/a.spec",
  "snap",
  "snap/x",
  "include/config/auto.h",
  "arch/x86/include/generated/asm.h",
  "arch/x86/kernel/setup.c",
  "patches-1",
  "d/patches-2/x",
  "cscope.out",
  "sphinx_build",
  "d/sphinx_x/y",
  ".gitignore",
  "d/.mailmap",
  ".hidden",
  "d/.hidden/x",
  "a.o",
  "d/a.o",
  "a.o.cmd",
  "a.o/x",
  "x~",
  "#x#",
  "d/#y#",
  "Module.symvers",
  "d/Module.symvers",
  "foo/x",
  "foo",
  "bar",
  "d/bar",
  "d/bar/x",
  "a/b",
  "a/x/y/b",
  "xyz",
  "d/xaz",
  "Test",
  "d/test",
  "!bang",
  "trail ",
  "deep/name",
  "x/deep/name",
  "spaced",
  "lex.tab.c",
  "d/x.tab.h",
  "build",
  "build/x",
  "d/build/y",
  "keep.o",
  "logs/a.log",
  "d/logs/b.log",
  "doc/a.txt",
  "x/doc/a.txt",
  "main.c",
  "drivers/net/e1000.c",
  "README",
  "d/e/f/g.h",
  "a.asn1.c",
  "z.c.1.x",
  "q.dtb.S",
] as const;

describe("ignorePrefilter()", () => {
  test.each(RULES)("rule %j: a path the prefilter rules out matches nothing", (rule) => {
    const rules = ignore({ ignorecase: false }).add(rule);
    const may = ignorePrefilter(rule);
    for (const path of PATHS) {
      if (may(path)) continue;
      for (const form of [path, `${path}/`]) {
        const result = rules.test(form);
        expect({ rule, form, ignored: result.ignored, unignored: result.unignored }).toEqual({
          rule,
          form,
          ignored: false,
          unignored: false,
        });
      }
    }
  });

  test("rules out most source paths for the kernel's top rules", () => {
    const may = ignorePrefilter(RULES.slice(0, RULES.indexOf("!.mailmap") + 1).join("\n"));
    expect(["main.c", "drivers/net/e1000.c", "README", "include/linux/kernel.h"].filter(may)).toEqual([]);
    expect(may("a.o")).toBe(true);
  });

  test("passes everything for a rule it cannot read, and nothing for no rules", () => {
    expect(ignorePrefilter("bad\\")("x")).toBe(true);
    expect(ignorePrefilter("# only a comment\n\n")("x")).toBe(false);
  });

  test("root().enter(…).may(name) answers exactly as the prefilter does for the whole path", () => {
    // Every rule alone, all together, and rules with an escaped `/`; each path as its folder and its name.
    const texts = [...RULES, RULES.join("\n"), "a\\/b", "x/y\\/z*"];
    const extra = ["a/b", "q/a/b", "x/y/z1", "x/y/zz/w", "d/e/.hidden", "arch/arm/include/generated"];
    let compared = 0;
    for (const text of texts) {
      const may = ignorePrefilter(text);
      for (const path of [...PATHS, ...extra]) {
        const cut = path.lastIndexOf("/");
        const folder = cut < 0 ? "" : path.slice(0, cut);
        const name = path.slice(cut + 1);
        expect({
          text,
          folder,
          name,
          may: folder.split("/").filter((segment) => segment !== "").reduce(
            (at, segment) => at.enter(segment),
            may.root(),
          ).may(name),
        }).toEqual({ text, folder, name, may: may(path) });
        compared++;
      }
    }
    expect(compared).toBe((RULES.length + 3) * (PATHS.length + 6));
  });
});
