// Found measuring Deno's grep on the Go tree: V8 deoptimized the host's functions that call libc through
// Deno's FFI and optimized them again over and over, for the life of the process (40-60 ms of compiler
// CPU in every warm search, the search code mostly unoptimized). Two causes, each shown by --trace-deopt:
// a 64-bit parameter given a number where Deno's optimized call checks for a BigInt ("not a BigInt"), and
// listHeld's loops nested three deep, whose innermost V8 compiled alone and dropped at every exit ("exit
// from OSR'd inner loop").
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect, test } from "vitest";
import { REPO } from "./helpers/paddock_command.ts";

// It starts Deno itself, whatever runs the suite: in HOST_INDEPENDENT_FILES (vitest.config.ts).
test(
  "Deno's FFI calls run thousands of times without a deopt loop; the control with a number deopts",
  () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-deopt-"));
    try {
      for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(folder, i === 0 ? "a.txt" : `f${i}.txt`), "x\n");
      const run = spawnSync(
        path.join(REPO, "node_modules", ".bin", "deno"),
        // Optimized on the calling thread, when the counts say so: with concurrent compilation under load
        // (CI runs files side by side on 2 cores) the control's loop could end before any optimized code
        // arrived, and show no deopt at all (0 in one CI run; 0 here with --concurrent-recompilation-delay=300).
        [
          "run",
          "-A",
          "--v8-flags=--trace-deopt,--no-concurrent-recompilation,--no-concurrent-osr",
          path.join(REPO, "test", "helpers", "deno_ffi_hot_loop.ts"),
          folder,
        ],
        { cwd: REPO, encoding: "utf8", maxBuffer: 64 << 20 },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr.split("\n")).toContain("done");
      const out = run.stdout;
      const deopts = out.split("\n").filter((line) => line.includes("bailout") && line.includes("deoptimizing"));
      const named = (reason: string) =>
        deopts.filter((line) => line.includes(reason)).map((line) => /<JSFunction (\S+)/.exec(line)?.[1] ?? "?");
      // The control proves the trace shows the loop: it alone deopts on "not a BigInt", and more than once
      // (11 times here, with or without an artificial compile delay, since compiling is not concurrent).
      expect(named("not a BigInt").filter((name) => !name.startsWith("control"))).toEqual([]);
      expect(named("not a BigInt").length).toBeGreaterThanOrEqual(2);
      expect(named("exit from OSR'd inner loop").filter((name) => /Held|Entries|nameEnd|isAscii/.test(name)))
        .toEqual([]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  },
  60_000,
);
