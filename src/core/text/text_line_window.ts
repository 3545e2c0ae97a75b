/** A window of whole lines cut from decoded text (what `readLineWindow` gives for bytes). */
export interface TextLineWindow {
  /** The window's text. */
  text: string;
  /** The last line in the window; `offset - 1` when it is empty. */
  endLine: number;
  /** Lines in the whole text. */
  totalLines: number;
  /** Whether lines follow the window. */
  hasMore: boolean;
  /** Whether the one line returned was longer than `maxBytes` and was cut. */
  lineCut: boolean;
}

/**
 * Cuts a window of whole lines from `text`, as `readLineWindow` does from a
 * file's bytes, for a file that must be decoded whole first (UTF-16: its
 * newlines are not single bytes). A line is what ends in `\n`, plus a final
 * line without one.
 *
 * @param text The whole decoded text.
 * @param offset The first line, 1-based.
 * @param limit Lines at most, or `undefined`.
 * @param maxBytes Bytes of the window at most, counted as `bytesPerUnit` per UTF-16 unit.
 * @param bytesPerUnit The file's bytes per code unit (2 for UTF-16).
 * @returns The window.
 */
export function textLineWindow(
  text: string,
  offset: number,
  limit: number | undefined,
  maxBytes: number,
  bytesPerUnit: number,
): TextLineWindow {
  const starts: number[] = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  if (starts[starts.length - 1] === text.length) starts.pop(); // no final line after the last newline
  const totalLines = text.length === 0 ? 0 : starts.length;
  if (offset > totalLines) return { text: "", endLine: offset - 1, totalLines, hasMore: false, lineCut: false };
  const maxUnits = Math.floor(maxBytes / bytesPerUnit);
  const from = starts[offset - 1];
  let endLine = offset - 1;
  while (endLine < totalLines && (limit === undefined || endLine - offset + 1 < limit)) {
    const end = endLine + 1 < totalLines ? starts[endLine + 1] : text.length;
    if (end - from > maxUnits) break;
    endLine++;
  }
  if (endLine < offset) {
    // One line longer than the bound: its start, never half a surrogate pair.
    let cut = from + maxUnits;
    const unit = text.charCodeAt(cut - 1);
    if (unit >= 0xd800 && unit <= 0xdbff) cut--;
    return { text: text.slice(from, cut), endLine: offset, totalLines, hasMore: true, lineCut: true };
  }
  const to = endLine < totalLines ? starts[endLine] : text.length;
  return { text: text.slice(from, to), endLine, totalLines, hasMore: endLine < totalLines, lineCut: false };
}
