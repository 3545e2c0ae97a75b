/** What {@link sniffMediaType} recognised: MCP's content type and the MIME type. */
export interface SniffedMedia {
  /** The MCP content block it becomes: `image` or `audio`. */
  kind: "image" | "audio";
  /** The MIME type, from the bytes. */
  mimeType: string;
}

/** Leading bytes {@link sniffMediaType} looks at. */
export const MEDIA_SNIFF_BYTES = 16;

// One signature: bytes at an offset (`-1` matches any byte).
interface Signature {
  offset: number;
  bytes: readonly number[];
}

const ascii = (offset: number, text: string): Signature => ({
  offset,
  bytes: [...text].map((char) => char.charCodeAt(0)),
});

// Each format with every signature it needs, in the order they are tried:
// the container formats (RIFF, ftyp, FORM) name their content after the box header.
const FORMATS: readonly { kind: "image" | "audio"; mimeType: string; all: readonly Signature[] }[] = [
  {
    kind: "image",
    mimeType: "image/png",
    all: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }],
  },
  { kind: "image", mimeType: "image/jpeg", all: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }] },
  { kind: "image", mimeType: "image/gif", all: [ascii(0, "GIF87a")] },
  { kind: "image", mimeType: "image/gif", all: [ascii(0, "GIF89a")] },
  { kind: "image", mimeType: "image/webp", all: [ascii(0, "RIFF"), ascii(8, "WEBP")] },
  { kind: "image", mimeType: "image/bmp", all: [ascii(0, "BM")] },
  { kind: "image", mimeType: "image/tiff", all: [{ offset: 0, bytes: [0x49, 0x49, 0x2a, 0x00] }] },
  { kind: "image", mimeType: "image/tiff", all: [{ offset: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] }] },
  { kind: "image", mimeType: "image/x-icon", all: [{ offset: 0, bytes: [0x00, 0x00, 0x01, 0x00] }] },
  { kind: "image", mimeType: "image/avif", all: [ascii(4, "ftypavif")] },
  { kind: "image", mimeType: "image/heic", all: [ascii(4, "ftypheic")] },
  { kind: "audio", mimeType: "audio/wav", all: [ascii(0, "RIFF"), ascii(8, "WAVE")] },
  { kind: "audio", mimeType: "audio/aiff", all: [ascii(0, "FORM"), ascii(8, "AIFF")] },
  { kind: "audio", mimeType: "audio/flac", all: [ascii(0, "fLaC")] },
  { kind: "audio", mimeType: "audio/ogg", all: [ascii(0, "OggS")] },
  { kind: "audio", mimeType: "audio/mpeg", all: [ascii(0, "ID3")] },
  { kind: "audio", mimeType: "audio/mp4", all: [ascii(4, "ftypM4A ")] },
  { kind: "audio", mimeType: "audio/midi", all: [ascii(0, "MThd")] },
];

/**
 * The media type of a file from its leading bytes, never from its name: a
 * `.png` holding text is not an image, and a picture named `notes.txt` is one.
 * Recognises PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, AVIF, HEIC images and WAV,
 * AIFF, FLAC, Ogg, MP3 (ID3 tag or a bare MPEG audio frame), AAC (ADTS), M4A
 * and MIDI audio. SVG (text) is not sniffed.
 *
 * @param head The file's first bytes ({@link MEDIA_SNIFF_BYTES} are enough).
 * @returns The kind and MIME type, or `undefined` when none matches.
 */
export function sniffMediaType(head: Uint8Array): SniffedMedia | undefined {
  for (const format of FORMATS) {
    if (format.all.every((signature) => matches(head, signature))) {
      return { kind: format.kind, mimeType: format.mimeType };
    }
  }
  // A bare MPEG audio frame: an 11-bit sync, then a layer that is not the reserved 00.
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) {
    // ADTS (AAC) has layer bits 00 after the sync; MPEG layers I–III have 01, 10 or 11.
    if ((head[1] & 0xf6) === 0xf0) return { kind: "audio", mimeType: "audio/aac" };
    if ((head[1] & 0x06) !== 0) return { kind: "audio", mimeType: "audio/mpeg" };
  }
  return undefined;
}

function matches(head: Uint8Array, signature: Signature): boolean {
  if (head.length < signature.offset + signature.bytes.length) return false;
  return signature.bytes.every((byte, i) => byte === -1 || head[signature.offset + i] === byte);
}
