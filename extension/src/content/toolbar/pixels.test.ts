import { describe, expect, it } from 'vitest';
import { contrastRatio } from './color.js';
import { type Pixels, pixelAt, textContrast } from './pixels.js';

/** An image filled by `paint(x, y)` → [r, g, b]. */
function image(width: number, height: number, paint: (x: number, y: number) => number[]): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r = 0, g = 0, b = 0] = paint(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

const white = { r: 255, g: 255, b: 255, a: 1 };

describe('pixels', () => {
  it('reads the pixel under a point, clamped to the image', () => {
    const img = image(4, 2, (x, y) => [x * 10, y * 10, 7]);
    expect(pixelAt(img, 2.7, 1.2)).toEqual({ r: 20, g: 10, b: 7, a: 1 });
    expect(pixelAt(img, 9, -3)).toEqual({ r: 30, g: 0, b: 7, a: 1 });
  });

  it('rates white text by the pixels behind it, not by a CSS background', () => {
    // White glyph strokes (every 5th column) over a dark brown photo that lightens to the right.
    const img = image(100, 20, (x) => (x % 5 === 0 ? [255, 255, 255] : [60 + x, 50 + x, 40 + x]));
    const r = textContrast(img, white);
    expect(r?.text).toEqual(white);
    const darkest = contrastRatio(white, { r: 159, g: 149, b: 139, a: 1 });
    const lightest = contrastRatio(white, { r: 61, g: 51, b: 41, a: 1 });
    expect(r?.ratio).toBeGreaterThan(darkest);
    expect(r?.ratio).toBeLessThan(lightest);
    // The worst tenth: nearer the light end than the average.
    expect(r?.ratio).toBeLessThan((darkest + lightest) / 2);
  });

  it('composites semi-transparent text over what is behind it', () => {
    const img = image(10, 10, () => [0, 0, 0]);
    const r = textContrast(img, { r: 255, g: 255, b: 255, a: 0.5 });
    expect(r?.text).toEqual({ r: 128, g: 128, b: 128, a: 1 });
    expect(r?.ratio).toBeCloseTo(
      contrastRatio({ r: 128, g: 128, b: 128, a: 1 }, { r: 0, g: 0, b: 0, a: 1 }),
      5,
    );
  });

  it('has nothing to rate when every pixel is the text colour', () => {
    expect(
      textContrast(
        image(5, 5, () => [255, 255, 255]),
        white,
      ),
    ).toBeNull();
  });
});
