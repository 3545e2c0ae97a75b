#!/usr/bin/env node
// The npm package's `paddock` command. It is committed (npm checks that a bin
// exists before `prepack` builds dist/), and it runs the compiled CLI.
import "../dist/cli.js";
