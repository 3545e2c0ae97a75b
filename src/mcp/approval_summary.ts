/**
 * The text of a call shown to a person for approval (`paddock mcp --shell
 * ask`): nothing in it may hide what will run.
 *
 * @module
 */

import { APPROVAL_SUMMARY_CHARS } from "../core/limits.ts";

// What JSON leaves as is but a terminal or a text field may act on or hide:
// DEL and the C1 controls (U+009B is a one-byte CSI), zero-width and bidi
// controls, line and paragraph separators, the byte-order mark.
const HIDDEN = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * The arguments of a call as an approval request shows them: JSON with every
 * control and invisible formatting character escaped (`\u001b`, `\u202e`, …),
 * whole when it fits in `limit` characters, else its start and its end with
 * the number of characters left out between them — so text appended after a
 * long harmless prefix is still seen.
 *
 * @param args The call's arguments.
 * @param limit Characters shown at most (besides the marker). @default 1000 ({@link APPROVAL_SUMMARY_CHARS})
 * @returns The summary.
 */
export function approvalSummary(args: unknown, limit: number = APPROVAL_SUMMARY_CHARS): string {
  const text = (JSON.stringify(args) ?? "null").replace(
    HIDDEN,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (text.length <= limit) return text;
  const head = Math.ceil(limit / 2);
  const tail = limit - head;
  // Never split a surrogate pair: a lone half would show as garbage.
  let end = head;
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? "")) end--;
  let start = text.length - tail;
  if (/[\udc00-\udfff]/.test(text[start] ?? "")) start++;
  return `${text.slice(0, end)} […${start - end} characters left out…] ${text.slice(start)}`;
}
