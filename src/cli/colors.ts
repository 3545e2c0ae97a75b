/** ANSI styling for the terminal, or plain text when colour is off. */
export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const style = (open: number, close: number) => (text: string): string => `\u001b[${open}m${text}\u001b[${close}m`;

/**
 * Colours for output, on only when `enabled`.
 *
 * @param enabled Whether to colour (a TTY and no `NO_COLOR`).
 * @returns The styling functions.
 */
export function createColors(enabled: boolean): Colors {
  if (!enabled) {
    const plain = (text: string): string => text;
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  }
  return {
    bold: style(1, 22),
    dim: style(2, 22),
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
  };
}

/**
 * Whether to colour a stream: it is a TTY and `NO_COLOR` is unset or empty
 * (https://no-color.org).
 *
 * @param isTTY Whether the stream is a terminal.
 * @param env The environment.
 * @returns Whether to colour.
 */
export function colorEnabled(isTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  return isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}
