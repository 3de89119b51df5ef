import { describe, expect, it } from 'vitest';
import { MARKER_BLOCK, MARKER_WIDTH, markerBlocks, markerMatches } from './band-marker.js';

/** One RGBA row painted with `code`'s blocks at `scale` image px per CSS px, on a `fill` background. */
function row(code: number, scale: number, fill = 128): Uint8ClampedArray {
  const width = Math.ceil(MARKER_WIDTH * scale) + 8;
  const px = new Uint8ClampedArray(width * 4).fill(fill);
  for (const b of markerBlocks(code))
    for (let x = Math.ceil(b.x * scale); x < Math.floor((b.x + b.width) * scale); x += 1)
      px.fill(b.white ? 255 : 0, x * 4, x * 4 + 3);
  return px;
}

describe('band marker', () => {
  it('encodes each bit with its complement, side by side', () => {
    const blocks = markerBlocks(0b101);
    expect(blocks).toHaveLength(16);
    expect(blocks.slice(0, 6).map((b) => b.white)).toEqual([true, false, false, true, true, false]);
    expect(blocks[3]?.x).toBe(3 * MARKER_BLOCK);
  });
  it('recognises its own code at any scale, and no other', () => {
    for (const scale of [1, 1.25, 2, 3])
      for (const code of [0, 1, 77, 128, 255]) {
        expect(markerMatches(row(code, scale), scale, code)).toBe(true);
        expect(markerMatches(row(code, scale), scale, (code + 1) & 0xff)).toBe(false);
      }
  });
  it('refuses page content: a flat colour, all white, all black', () => {
    for (const fill of [0, 128, 255]) {
      const flat = new Uint8ClampedArray(400 * 4).fill(fill);
      for (let code = 0; code < 256; code += 1) expect(markerMatches(flat, 2, code)).toBe(false);
    }
  });
});
