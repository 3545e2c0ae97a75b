#!/usr/bin/env node
// The npm package's `paddock` command. It is committed (npm checks that a bin
// exists before `prepack` builds dist/), and it runs the compiled CLI bundled
// with its dependencies (`scripts/build_bin.mjs`: a quicker start).
import "../dist/bin/cli.js";
