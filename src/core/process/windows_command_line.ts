/**
 * Quotes one argument for a Windows command line the way CommandLineToArgvW
 * (and the C runtime) splits it back: wrap in quotes when it is empty or holds
 * a space, tab or quote; double the backslashes that precede a quote or the
 * closing quote; escape quotes with a backslash.
 */
function quoteWindowsArgument(argument: string): string {
  if (argument !== "" && !/[\s"]/.test(argument)) return argument;
  let quoted = '"';
  let backslashes = 0;
  for (const char of argument) {
    if (char === "\\") {
      backslashes++;
      continue;
    }
    if (char === '"') {
      quoted += "\\".repeat(backslashes * 2 + 1) + '"';
    } else {
      quoted += "\\".repeat(backslashes) + char;
    }
    backslashes = 0;
  }
  return quoted + "\\".repeat(backslashes * 2) + '"';
}

/** UTF-16 length of `args` quoted and joined by spaces, as on a Windows command line. */
export function windowsCommandLineLength(args: readonly string[]): number {
  let length = Math.max(0, args.length - 1);
  for (const argument of args) length += quoteWindowsArgument(argument).length;
  return length;
}
