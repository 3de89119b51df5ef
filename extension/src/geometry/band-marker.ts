/**
 * The marker that proves a full-page band was captured after the page painted its scroll position
 * (geometry/ is shared by the content script, which paints it, and the worker, which reads it).
 * `captureVisibleTab` copies whatever frame the compositor shows next; on a slow machine, and at
 * device pixel ratio 2 above all, that can still be the frame of the previous scroll position, or
 * one from before the toolbar hid itself. The content script paints a row of black and white
 * blocks, encoding a per-band code, in the viewport strip the band does not use, in the same
 * frame as the scroll; the worker stitches a capture only if it shows that code.
 */

/** Height of the strip a band leaves for its marker (CSS px). */
export const MARKER_HEIGHT = 4;
/** Width of one block (CSS px); 16 blocks: each of 8 bits, then its complement. */
export const MARKER_BLOCK = 6;
const BITS = 8;

export interface MarkerBlock {
  /** Left edge in the viewport (CSS px). */
  x: number;
  width: number;
  white: boolean;
}

/** The blocks that encode `code` (0–255). Each bit is followed by its complement. */
export function markerBlocks(code: number): MarkerBlock[] {
  const blocks: MarkerBlock[] = [];
  for (let bit = 0; bit < BITS; bit += 1) {
    const on = ((code >> bit) & 1) === 1;
    blocks.push({ x: 2 * bit * MARKER_BLOCK, width: MARKER_BLOCK, white: on });
    blocks.push({ x: (2 * bit + 1) * MARKER_BLOCK, width: MARKER_BLOCK, white: !on });
  }
  return blocks;
}

/** Width of the whole marker (CSS px). */
export const MARKER_WIDTH = 2 * BITS * MARKER_BLOCK;

/**
 * Whether one row of RGBA pixels through the middle of the strip (starting at the viewport's left
 * edge, `scale` image pixels per CSS px) shows the marker of `code`: every block's centre within
 * 48 of pure black or white, as encoded.
 */
export function markerMatches(row: Uint8ClampedArray, scale: number, code: number): boolean {
  for (const block of markerBlocks(code)) {
    const i = Math.floor((block.x + block.width / 2) * scale) * 4;
    const want = block.white ? 255 : 0;
    for (let c = 0; c < 3; c += 1) if (Math.abs((row[i + c] ?? -1000) - want) > 48) return false;
  }
  return true;
}
