import type { ShellOutputSink } from "../../shell_provider.ts";
import { encodeUtf8 } from "../text/utf8.ts";
import type { KeptOutput } from "./kept_output.ts";
import type { KeptStream } from "./kept_stream.ts";

/** What a foreground `shell` or `node_process` result adds about its kept output. */
export interface KeptOutputFields {
  /** The id `process_output` pages and searches this command's whole output by (`offset`, `regex`). */
  outputId?: string;
  /** Lines of stdout left out of `stdout` (between its start and its end); present when `stdoutTruncated`. */
  stdoutOmittedLines?: number;
  /** Lines of stderr left out of `stderr`; present when `stderrTruncated`. */
  stderrOmittedLines?: number;
}

/**
 * The sink a foreground command's output goes to, into its kept record.
 *
 * @param kept The record.
 * @returns The sink.
 */
export function keptSink(kept: KeptOutput): ShellOutputSink {
  return { stdout: (chunk) => kept.stdout.push(chunk), stderr: (chunk) => kept.stderr.push(chunk) };
}

/** One stream of a result, as the tool shows it. */
export interface ShownStream {
  /** The text (start, marker, end). */
  text: string;
  /** Lines left out between the start and the end. */
  omittedLines: number;
}

// The marker the bounded output puts between its start and its end.
const MARKER = /\n\[… \d+ bytes omitted …\]\n/;

/**
 * Finishes one stream of a foreground result from what the provider returned
 * and the whole output kept: a provider that did not stream has its returned
 * text kept instead; when the text was cut, the lines left out are counted.
 * The text stays as the bound cut it (a line longer than the bound shows its
 * start and its end); `process_output` pages show lines clipped at
 * `OUTPUT_MAX_LINE_CHARS`.
 *
 * @param stream The kept stream.
 * @param text The text the provider returned (already bounded).
 * @param truncated Whether it was cut.
 * @returns The text as shown, and the lines left out.
 */
export function showStream(stream: KeptStream, text: string, truncated: boolean): ShownStream {
  if (stream.empty && text !== "") stream.push(encodeUtf8(text));
  if (!truncated) return { text, omittedLines: 0 };
  const shownBreaks = countBreaks(text.replace(MARKER, ""));
  const omittedLines = Math.max(0, stream.lineBreaks - shownBreaks);
  return { text, omittedLines };
}

function countBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
