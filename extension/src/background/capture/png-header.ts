const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's header (the IHDR chunk comes first); null if it is not a PNG. */
export function pngSize(head: Uint8Array): { width: number; height: number } | null {
  if (head.length < 24 || PNG_SIGNATURE.some((b, i) => head[i] !== b)) return null;
  const view = new DataView(head.buffer, head.byteOffset, 24);
  if (view.getUint32(12) !== 0x49484452) return null; // "IHDR"
  const size = { width: view.getUint32(16), height: view.getUint32(20) };
  return size.width > 0 && size.height > 0 ? size : null;
}
