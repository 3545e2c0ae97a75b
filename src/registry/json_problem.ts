/**
 * What is wrong with arguments sent as JSON text that does not parse, in
 * words a model can act on. Computed on the text alone (the runtimes' own
 * `JSON.parse` messages differ between V8 and JavaScriptCore), by one scan
 * that follows strings and nesting:
 *
 * 1. Text that does not start with `{`: the arguments must be an object.
 * 2. A string or an object still open at the end: the text was cut off.
 * 3. A `'` where a string starts: JSON strings take double quotes.
 * 4. A comma right before a closing `}` or `]`: JSON has no trailing comma.
 * 5. A raw control character (a newline, a tab) inside a string: it must be escaped.
 * 6. Anything else: the offset where the scan lost its way is not known, so the usual causes are named.
 *
 * @param text The arguments as sent (not empty: empty text is read as `{}`).
 * @returns The problem, one sentence, lower case.
 */
export function jsonProblem(text: string): string {
  const body = text.trim();
  // 1. Not an object at all.
  if (!body.startsWith("{")) {
    return `the arguments must be a JSON object, but the text starts with '${body.slice(0, 12)}'`;
  }
  // 2-5. One pass over strings and nesting.
  let depth = 0;
  let inString = false;
  let lastSignificant = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      else if (c.charCodeAt(0) < 0x20) {
        return "a string holds a raw control character (a newline or a tab): write it escaped, as \\n or \\t";
      }
      continue;
    }
    if (c === " " || c === "\n" || c === "\r" || c === "\t") continue;
    if (c === '"') inString = true;
    else if (c === "'" && /[{[,:]/.test(lastSignificant)) {
      return "a string is in single quotes: JSON takes double quotes";
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (lastSignificant === ",") return "a comma comes right before a closing bracket: JSON has no trailing comma";
      depth--;
    }
    lastSignificant = c;
  }
  if (inString || depth > 0) return "the text ends before every string and object in it is closed (was it cut off?)";
  // 6. Something else.
  return "the text is not valid JSON: check the quotes, commas and escapes, and that nothing follows the object";
}
