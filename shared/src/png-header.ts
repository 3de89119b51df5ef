/**
 * The one "is this a PNG" check: the 8-byte signature, then the IHDR chunk a PNG must start with,
 * whose width and height are read without decoding anything. Browser-safe: the extension reads a
 * capture's size with it, the reference-data schema checks the first bytes of a `base64:` value,
 * the store checks the bytes it writes and the host the screenshots it receives.
 */

export const PNG_SIGNATURE: readonly number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Bytes needed to read the size: signature, IHDR length and type, width and height. */
export const PNG_SIZE_BYTES = 24;

/** The IHDR chunk's type, "IHDR" read as a big-endian 32-bit number. */
const IHDR = 0x49484452;

export type PngHeader =
  | { ok: true; width: number; height: number }
  | { ok: false; problem: 'too short' | 'bad signature' | 'no IHDR chunk' | 'zero size' };

/** Reads the start of a PNG (at least PNG_SIZE_BYTES): its size, or why it is not a PNG. */
export function readPngHeader(head: Uint8Array): PngHeader {
  if (head.length < PNG_SIZE_BYTES) return { ok: false, problem: 'too short' };
  if (PNG_SIGNATURE.some((byte, i) => head[i] !== byte)) return { ok: false, problem: 'bad signature' };
  const view = new DataView(head.buffer, head.byteOffset, PNG_SIZE_BYTES);
  // The IHDR chunk comes first and always holds 13 bytes.
  if (view.getUint32(8) !== 13 || view.getUint32(12) !== IHDR) return { ok: false, problem: 'no IHDR chunk' };
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { ok: true, width, height } : { ok: false, problem: 'zero size' };
}

/** Width and height from the start of a PNG; null if it is not one. */
export function pngSize(head: Uint8Array): { width: number; height: number } | null {
  const header = readPngHeader(head);
  return header.ok ? { width: header.width, height: header.height } : null;
}
