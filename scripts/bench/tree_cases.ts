import type { FindFilesArguments, GrepArguments } from "../../mod.ts";

/** One real-tree search: Paddock's call and the two command lines it is measured against. */
export interface TreeCase {
  /** A short name (to pick cases: `tree.ts <tree> <name>…`). */
  name: string;
  /** What is measured, for the table. */
  label: string;
  tool: "grep" | "find_files";
  /** The tool's arguments. */
  args: GrepArguments | FindFilesArguments;
  /** ripgrep or fd, as a shell command run in the tree. */
  fast: string;
  /** GNU grep or find, as a shell command run in the tree. */
  classic: string;
  /**
   * For a case with a limit: ripgrep giving its first lines in Paddock's order
   * (`--sort path`, which makes it search in one thread), since the first 100
   * lines of the fast command are whichever its threads found first.
   */
  ordered?: string;
  /**
   * For a case that must visit the whole tree: the bare `node:fs` loop under it
   * (`tree_floor.ts`): `read` every file (grep), or `list` every folder (find_files).
   */
  floor?: "read" | "list";
}

// The five cases. Same work on every side as far as the tools allow:
// dot files are searched (`--hidden`, `-H`) because Paddock searches them;
// ripgrep and fd apply .gitignore as Paddock does, GNU grep and find cannot
// (they skip only `.git`). "First 100 lines" ends the baseline through
// `head` (SIGPIPE), which is how a person gets the first lines from them.
export const TREE_CASES: TreeCase[] = [
  {
    name: "literal-count",
    label: "grep literal `EXPORT_SYMBOL_GPL`, count per file",
    tool: "grep",
    args: { pattern: "EXPORT_SYMBOL_GPL", literal: true, output_mode: "count" },
    floor: "read",
    fast: "rg --hidden -c -F EXPORT_SYMBOL_GPL",
    classic: "grep -r --exclude-dir=.git -c -F EXPORT_SYMBOL_GPL . | grep -v ':0$'",
  },
  {
    name: "regex-files",
    label: "grep regex `struct \\w+_operations \\{`, files with matches",
    tool: "grep",
    args: { pattern: "struct \\w+_operations \\{", output_mode: "files_with_matches" },
    floor: "read",
    fast: "rg --hidden -l 'struct \\w+_operations \\{'",
    classic: "grep -r --exclude-dir=.git -l -E 'struct \\w+_operations \\{' .",
  },
  {
    name: "icase-first100",
    label: "grep ignore-case literal `use-after-free`, first 100 lines",
    tool: "grep",
    args: { pattern: "use-after-free", literal: true, ignore_case: true, limit: 100 },
    fast: "rg --hidden -n -i -F use-after-free | head -n 100",
    ordered: "rg --hidden --sort path -n -i -F use-after-free | head -n 100",
    classic: "grep -r --exclude-dir=.git -n -i -F use-after-free . | head -n 100",
  },
  {
    name: "glob-first100",
    label: "grep regex `#define [A-Z_]+_MASK\\b`, glob `*.h`, first 100 lines",
    tool: "grep",
    args: { pattern: "#define [A-Z_]+_MASK\\b", glob: "*.h", limit: 100 },
    fast: "rg --hidden -n -g '*.h' '#define [A-Z_]+_MASK\\b' | head -n 100",
    ordered: "rg --hidden --sort path -n -g '*.h' '#define [A-Z_]+_MASK\\b' | head -n 100",
    classic: "grep -r --exclude-dir=.git -n --include='*.h' -E '#define [A-Z_]+_MASK\\b' . | head -n 100",
  },
  {
    name: "find-c",
    label: "find_files `**/*.c`",
    tool: "find_files",
    args: { pattern: "**/*.c" },
    floor: "list",
    fast: "fdfind -H -g '*.c'",
    classic: "find . -name .git -prune -o -name '*.c' -print",
  },
];
