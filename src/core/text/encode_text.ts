import { WorkspaceError } from "../errors.ts";
import { singleByteTable } from "./_single_byte.ts";
import { bomOf, type TextForm } from "./text_form.ts";

const utf8Encoder = new TextEncoder();

/** What an encode is for, for its errors. */
export interface EncodeOptions {
  /** The path as shown in messages. */
  display: string;
  /** The action, for messages ("write", "edit", "patch"). @default "write" */
  action?: string;
}

// The first lone surrogate (half of a UTF-16 pair without its other half): no encoding holds one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Encodes `text` in `form` (its encoding, and its byte order mark when
 * `form.bom`): the inverse of `decodeText`. A character the encoding cannot
 * hold is refused, never replaced.
 *
 * @param text The text, without a byte order mark.
 * @param form The encoding and BOM to write.
 * @param options The path and action, for errors.
 * @returns The bytes.
 * @throws {WorkspaceError} `UNREPRESENTABLE_CHARACTER`, naming the character and its line.
 *
 * @example Back to windows-1252
 * ```ts
 * import { encodeText } from "./encode_text.ts";
 * encodeText("café", { encoding: "windows-1252", bom: false }, { display: "a.txt" }); // 63 61 66 e9
 * ```
 */
export function encodeText(text: string, form: TextForm, options: EncodeOptions): Uint8Array {
  const lone = LONE_SURROGATE.exec(text);
  if (lone !== null) throw unrepresentable(text, lone.index, form, options);
  const bom = form.bom ? bomOf(form.encoding) : new Uint8Array(0);
  let body: Uint8Array;
  if (form.encoding === "utf-8") body = utf8Encoder.encode(text);
  else if (form.encoding === "utf-16le" || form.encoding === "utf-16be") {
    body = new Uint8Array(text.length * 2);
    const high = form.encoding === "utf-16be" ? 0 : 1;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      body[2 * i + high] = unit >> 8;
      body[2 * i + 1 - high] = unit & 0xff;
    }
  } else {
    const { bytes } = singleByteTable(form.encoding);
    body = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const byte = bytes.get(text[i]);
      if (byte === undefined) throw unrepresentable(text, i, form, options);
      body[i] = byte;
    }
  }
  if (bom.length === 0) return body;
  const out = new Uint8Array(bom.length + body.length);
  out.set(bom);
  out.set(body, bom.length);
  return out;
}

function unrepresentable(text: string, index: number, form: TextForm, options: EncodeOptions): WorkspaceError {
  const { display } = options;
  const action = options.action ?? "write";
  const point = text.codePointAt(index) as number;
  const char = String.fromCodePoint(point);
  const unit = point >= 0xd800 && point <= 0xdfff ? "a lone surrogate" : `'${char}'`;
  const code = `U+${point.toString(16).toUpperCase().padStart(4, "0")}`;
  let line = 1;
  for (let at = text.indexOf("\n"); at >= 0 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return new WorkspaceError(
    "UNREPRESENTABLE_CHARACTER",
    `Cannot ${action} '${display}': ${form.encoding} cannot hold ${unit} (${code}) on line ${line}`,
    {
      path: display,
      hint: form.encoding.startsWith("utf")
        ? "remove the lone surrogate half; nothing was changed"
        : `the file is ${form.encoding}: use characters it holds (e.g. ASCII) in place of ${unit}, or rewrite the whole file as utf-8 with write_file; nothing was changed`,
      details: { encoding: form.encoding, character: code, line },
    },
  );
}
